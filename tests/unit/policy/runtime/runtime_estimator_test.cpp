#include "policy/runtime/runtime_estimator.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(RuntimeEstimator){};

TEST(RuntimeEstimator, LearnsTheMeanPerCategoryElseUsesTheLimit)
{
    RuntimeEstimator est;
    JobEnd e;
    e.category = "a";
    e.elapsed = 10;
    est.observe(e);
    e.elapsed = 30;
    est.observe(e);
    Job j;
    j.category = "a";
    j.time_limit = 500;
    DOUBLES_EQUAL(20, est.estimate(j), 1e-12);
    j.category = "b";
    DOUBLES_EQUAL(500, est.estimate(j), 0);
}

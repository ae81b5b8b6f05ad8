#include "model/job_dependency.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(JobDependency){};

TEST(JobDependency, ReadsTheIdsOfEveryItemAndAlternative)
{
    auto ids = dependency_job_ids("afterok:12:13,afterany:14_*(unfulfilled)?afternotok:15+60,singleton");
    LONGS_EQUAL(4, ids.size());
    LONGS_EQUAL(12, ids[0]);
    LONGS_EQUAL(13, ids[1]);
    LONGS_EQUAL(14, ids[2]);
    LONGS_EQUAL(15, ids[3]);
}

TEST(JobDependency, IgnoresWordsThatNameNoJobAndRepeats)
{
    CHECK(dependency_job_ids("").empty());
    CHECK(dependency_job_ids("singleton").empty());
    CHECK(dependency_job_ids("afterok:x12,afterok:12y,afterok:0").empty());
    auto ids = dependency_job_ids("afterok:7,afterany:7(unfulfilled)");
    LONGS_EQUAL(1, ids.size());
    LONGS_EQUAL(7, ids[0]);
    CHECK(dependency_job_ids("afterok:99999999999").empty()); // beyond 32-bit ids
}

TEST(JobDependency, EndedDependenciesAreTheItemsThatWaitForAnEnd)
{
    const auto ids = ended_dependency_job_ids("after:1,afterok:2:3(unfulfilled),afternotok:4?afterany:5,aftercorr:6_*,"
                                              "singleton");
    CHECK((ids == std::vector<JobId>{2, 3, 5, 6}));
}

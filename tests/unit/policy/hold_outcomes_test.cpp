#include "policy/hold_outcomes.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

JobEnd ended(JobId id, const char* group)
{
    JobEnd e;
    e.id = id;
    e.node_group = group;
    return e;
}

} // namespace

TEST_GROUP(HoldOutcomes){};

TEST(HoldOutcomes, CountsOnlyHeldJobsOnceEachAfterEnoughHaveEnded)
{
    HoldOutcomes h(8, 4);
    for (JobId id = 1; id <= 4; ++id)
        h.held(id);
    h.held(1); // held again in a later decision: still one job
    h.observe(ended(1, "aws"));
    h.observe(ended(2, ""));
    h.observe(ended(3, ""));
    h.observe(ended(9, "aws")); // never held: not counted
    DOUBLES_EQUAL(0, h.burst_share(), 1e-12); // 3 of 4 needed
    h.observe(ended(1, "aws")); // already counted
    h.observe(ended(4, "aws"));
    DOUBLES_EQUAL(0.5, h.burst_share(), 1e-12);
    LONGS_EQUAL(0, h.outstanding());
}

TEST(HoldOutcomes, RemembersOnlyTheLastWindow)
{
    HoldOutcomes h(4, 1);
    for (JobId id = 1; id <= 4; ++id) {
        h.held(id);
        h.observe(ended(id, "aws"));
    }
    DOUBLES_EQUAL(1, h.burst_share(), 1e-12);
    for (JobId id = 5; id <= 7; ++id) {
        h.held(id);
        h.observe(ended(id, ""));
    }
    DOUBLES_EQUAL(0.25, h.burst_share(), 1e-12);
}

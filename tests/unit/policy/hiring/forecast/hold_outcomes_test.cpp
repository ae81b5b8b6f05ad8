#include "policy/hiring/forecast/hold_outcomes.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

// A job that started at `start`, ran 100 s and ended there (group "" = local).
JobEnd ended(JobId id, Time start, const char* group)
{
    JobEnd e;
    e.id = id;
    e.elapsed = 100;
    e.end_time = start + 100;
    e.node_group = group;
    return e;
}

} // namespace

TEST_GROUP(HoldOutcomes){};

TEST(HoldOutcomes, ComparesWhatHoldingCostWithTheForecastFromTheFirstHold)
{
    HoldOutcomes h(8, 2);
    // Rate 1 per second; forecast waits 100 s and 200 s.
    h.held(1, 0, 1, 100);
    h.held(1, 50, 1, 10); // held again later: the first hold counts
    h.held(2, 0, 1, 200);
    // Job 1 started locally at 300 s: holding cost 300.
    h.observe(ended(1, 300, ""));
    DOUBLES_EQUAL(1, h.cost_ratio(), 1e-12); // 1 of 2 needed
    h.observe(ended(9, 0, "aws"));           // never held: not counted
    DOUBLES_EQUAL(1, h.cost_ratio(), 1e-12);
    // Job 2 was routed at 40 s for 20: 40 s of waiting + 20.
    h.routed(2, 40, 20);
    h.observe(ended(2, 160, "aws"));
    DOUBLES_EQUAL((300.0 + 60) / (100 + 200), h.cost_ratio(), 1e-12);
    h.observe(ended(2, 160, "aws")); // already counted
    DOUBLES_EQUAL(1.2, h.cost_ratio(), 1e-12);
    LONGS_EQUAL(0, h.outstanding());
}

TEST(HoldOutcomes, ALaterBurstCostsWhatItCostNotTheWholeForecastWait)
{
    HoldOutcomes h(8, 1);
    // Routed 10 s after its first hold onto warm cores for 5: 15 against a
    // forecast of 100.
    h.held(1, 0, 1, 100);
    h.routed(1, 10, 5);
    h.observe(ended(1, 10, "aws"));
    DOUBLES_EQUAL(0.15, h.cost_ratio(), 1e-12);
    // Ended in the cloud without being routed here: its wait (30 s) only.
    h.held(2, 0, 1, 100);
    h.observe(ended(2, 30, "aws"));
    DOUBLES_EQUAL(45.0 / 200, h.cost_ratio(), 1e-12);
    h.routed(3, 10, 5); // never held: nothing to learn
    LONGS_EQUAL(0, h.outstanding());
}

TEST(HoldOutcomes, RemembersOnlyTheLastWindow)
{
    HoldOutcomes h(4, 1);
    for (JobId id = 1; id <= 4; ++id) {
        h.held(id, 0, 1, 100);
        h.observe(ended(id, 300, ""));
    }
    DOUBLES_EQUAL(3, h.cost_ratio(), 1e-12);
    for (JobId id = 5; id <= 7; ++id) {
        h.held(id, 0, 1, 100);
        h.observe(ended(id, 100, ""));
    }
    DOUBLES_EQUAL(1.5, h.cost_ratio(), 1e-12);
}

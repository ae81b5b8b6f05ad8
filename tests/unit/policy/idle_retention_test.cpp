#include "policy/idle_retention.hpp"

#include "policy_test_state.hpp"

#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::StateBuilder;

namespace {

// One 8-core node at 0.8 per hour booting in 100 s: a fresh node costs
// 0.8 × 100 / 3600 ≈ 0.022 of boot, plus λ × 8 × 100 / 3600 of waiting.
StateBuilder one_node()
{
    StateBuilder b;
    b.local("n1", 8, 8).group("aws", 8, 2, 0.8, 100);
    return b;
}

// aws-1 is busy, goes idle, and is needed again `gap` seconds later,
// `times` times; returns when it has just gone idle again.
Time cycles(IdleRetention& r, StateBuilder& b, Seconds gap, int times, Time t = 0)
{
    for (int i = 0; i < times; ++i) {
        r.observe(b.up("aws-1", 8).state, t);
        r.observe(b.up("aws-1", 0).state, t += 60);
        t += gap;
    }
    r.observe(b.up("aws-1", 8).state, t);
    r.observe(b.up("aws-1", 0).state, t += 60);
    return t;
}

} // namespace

TEST_GROUP(IdleRetention){};

TEST(IdleRetention, KeepsEveryIdleNodeUntilItHasSeenHowSoonNodesAreNeeded)
{
    StateBuilder b = one_node();
    IdleRetention r(0.05);
    r.observe(b.up("aws-1", 0).state, 0);
    CHECK(r.release(b.state.groups[0], 1000, 1).empty());
}

TEST(IdleRetention, KeepsANodeWhenNodesAreNeededSoonAfterGoingIdle)
{
    // Needed 120 s after going idle: keeping one costs 0.8 × 120 / 3600 ≈
    // 0.027, a fresh one 0.022 + 0.05 × 8 × 100 / 3600 ≈ 0.033.
    StateBuilder b = one_node();
    IdleRetention r(0.05);
    const Time t = cycles(r, b, 120, 5);
    CHECK(r.release(b.state.groups[0], t, 1).empty());
    CHECK(r.release(b.state.groups[0], t + 60, 1).empty());
}

TEST(IdleRetention, PowersANodeDownWhenKeepingItCostsMoreThanAFreshOne)
{
    // Needed 600 s after going idle: 0.13 of idle against 0.033.
    StateBuilder b = one_node();
    IdleRetention r(0.05);
    DOUBLES_EQUAL(150, r.horizon(b.state.groups[0]), 1e-9);
    const Time t = cycles(r, b, 600, 5);
    const auto out = r.release(b.state.groups[0], t, 1);
    LONGS_EQUAL(1, out.size());
    STRCMP_EQUAL("aws-1", out[0].c_str());
}

TEST(IdleRetention, WaitingPricedHigherKeepsNodesLonger)
{
    // The same history at λ = 1: a fresh node costs 0.022 + 0.22, keeping
    // one for 600 s 0.13.
    StateBuilder b = one_node();
    IdleRetention r(1);
    DOUBLES_EQUAL(1100, r.horizon(b.state.groups[0]), 1e-9);
    const Time t = cycles(r, b, 600, 5);
    CHECK(r.release(b.state.groups[0], t, 1).empty());
}

TEST(IdleRetention, WeighsANodeByTheGapsStillPossibleAtItsAge)
{
    // Needs come 60 s or 3000 s (never, at λ = 0.05) after a node goes
    // idle: kept at first, powered down once 60 s have passed without one.
    StateBuilder b = one_node();
    IdleRetention r(0.05);
    Time t = cycles(r, b, 60, 4);
    t = cycles(r, b, 3000, 4, t + 60);
    CHECK(r.release(b.state.groups[0], t, 1).empty());
    LONGS_EQUAL(1, r.release(b.state.groups[0], t + 120, 1).size());
}

TEST(IdleRetention, ReleasesNoMoreThanTheSpareNodesLongestIdleFirst)
{
    StateBuilder b = one_node();
    IdleRetention r(0.05);
    Time t = cycles(r, b, 600, 5);
    r.observe(b.up("aws-2", 0).state, t += 60);
    CHECK(r.release(b.state.groups[0], t, 0).empty());
    const auto out = r.release(b.state.groups[0], t, 1);
    LONGS_EQUAL(1, out.size());
    STRCMP_EQUAL("aws-1", out[0].c_str());
    LONGS_EQUAL(2, r.release(b.state.groups[0], t, 2).size());
}

TEST(IdleRetention, TheCoresThatWaitAreThoseNodesEnteringUseCarry)
{
    // Nodes entering use with 1 core of 8: the waiting a fresh node costs
    // at λ = 1 is 1 × 100 / 3600, so H = (0.022 + 0.028) / (0.8 / 3600).
    StateBuilder b = one_node();
    IdleRetention r(1);
    r.observe(b.up("aws-1", 1).state, 0);
    DOUBLES_EQUAL(225, r.horizon(b.state.groups[0]), 1e-9);
}

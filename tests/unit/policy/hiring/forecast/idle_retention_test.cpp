#include "policy/hiring/forecast/idle_retention.hpp"

#include "policy/site/site_view.hpp"
#include "policy/policy_test_state.hpp"

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

void observe(IdleRetention& r, const StateBuilder& b, Time now)
{
    r.observe(b.state, SiteView::of(b.state), now);
}

// aws-1 is busy, goes idle, and is needed again `gap` seconds later,
// `times` times; returns when it has just gone idle again.
Time cycles(IdleRetention& r, StateBuilder& b, Seconds gap, int times, Time t = 0)
{
    for (int i = 0; i < times; ++i) {
        observe(r, b.up("aws-1", 8), t);
        observe(r, b.up("aws-1", 0), t += 60);
        t += gap;
    }
    observe(r, b.up("aws-1", 8), t);
    observe(r, b.up("aws-1", 0), t += 60);
    return t;
}

// The nodes of the first group `r` powers down now, as ForecastPolicy asks.
std::vector<std::string> release(IdleRetention& r, const StateBuilder& b, Time now, std::uint32_t spare)
{
    NodeInstances instances(b.state.instances);
    return r.release(SiteView::of(b.state).groups[0], instances, now, spare);
}

} // namespace

TEST_GROUP(IdleRetention){};

TEST(IdleRetention, KeepsEveryIdleNodeUntilItHasSeenHowSoonNodesAreNeeded)
{
    StateBuilder b = one_node();
    IdleRetention r(0.05);
    observe(r, b, 0);
    observe(r, b.up("aws-1", 0), 60);
    CHECK(release(r, b, 1000, 1).empty());
}

TEST(IdleRetention, KeepsANodeWhenNodesAreNeededSoonAfterGoingIdle)
{
    // Needed 120 s after going idle: keeping one costs 0.8 × 120 / 3600 ≈
    // 0.027, a fresh one 0.022 + 0.05 × 8 × 100 / 3600 ≈ 0.033.
    StateBuilder b = one_node();
    IdleRetention r(0.05);
    const Time t = cycles(r, b, 120, 5);
    CHECK(release(r, b, t, 1).empty());
    CHECK(release(r, b, t + 60, 1).empty());
}

TEST(IdleRetention, PowersANodeDownWhenKeepingItCostsMoreThanAFreshOne)
{
    // Needed 600 s after going idle: 0.13 of idle against 0.033.
    StateBuilder b = one_node();
    IdleRetention r(0.05);
    DOUBLES_EQUAL(150, r.horizon(b.state.groups[0]), 1e-9);
    const Time t = cycles(r, b, 600, 5);
    const auto out = release(r, b, t, 1);
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
    CHECK(release(r, b, t, 1).empty());
}

TEST(IdleRetention, WeighsANodeByTheGapsStillPossibleAtItsAge)
{
    // Needs come 60 s or 3000 s (never, at λ = 0.05) after a node goes
    // idle: kept at first, powered down once 60 s have passed without one.
    StateBuilder b = one_node();
    IdleRetention r(0.05);
    Time t = cycles(r, b, 60, 4);
    t = cycles(r, b, 3000, 4, t + 60);
    CHECK(release(r, b, t, 1).empty());
    LONGS_EQUAL(1, release(r, b, t + 120, 1).size());
}

TEST(IdleRetention, ReleasesNoMoreThanTheSpareNodesLongestIdleFirst)
{
    StateBuilder b = one_node();
    IdleRetention r(0.05);
    Time t = cycles(r, b, 600, 5);
    observe(r, b.up("aws-2", 0), t += 60);
    CHECK(release(r, b, t, 0).empty());
    const auto out = release(r, b, t, 1);
    LONGS_EQUAL(1, out.size());
    STRCMP_EQUAL("aws-1", out[0].c_str());
    LONGS_EQUAL(2, release(r, b, t, 2).size());
}

TEST(IdleRetention, TheCoresThatWaitAreThoseNodesEnteringUseCarry)
{
    // Nodes entering use with 1 core of 8: the waiting a fresh node costs
    // at λ = 1 is 1 × 100 / 3600, so H = (0.022 + 0.028) / (0.8 / 3600).
    StateBuilder b = one_node();
    IdleRetention r(1);
    observe(r, b, 0);
    observe(r, b.up("aws-1", 1), 60);
    DOUBLES_EQUAL(225, r.horizon(b.state.groups[0]), 1e-9);
}

TEST(IdleRetention, NodesEnteringUseWithNoCoresDoNotCountInTheCoresThatWait)
{
    // aws-1 powered up by another policy with nothing on it yet, aws-2 taking
    // 1 core: 1 core waits per need, as above, not 0.5.
    StateBuilder b = one_node();
    IdleRetention r(1);
    observe(r, b, 0);
    b.node("aws-1").flags = kNodeCloud | kNodePoweringUp;
    observe(r, b.up("aws-2", 1), 60);
    DOUBLES_EQUAL(225, r.horizon(b.state.groups[0]), 1e-9);
}

TEST(IdleRetention, NodesBusyAtTheFirstCallAreNoNeeds)
{
    // Nothing learned: 8 cores wait for a fresh node, H = (0.022 + 0.22) / (0.8 / 3600).
    StateBuilder b = one_node();
    IdleRetention r(1);
    observe(r, b.up("aws-1", 1), 0);
    DOUBLES_EQUAL(1100, r.horizon(b.state.groups[0]), 1e-9);
}

TEST(IdleRetention, LeavesNodesIdleAtTheFirstCallToSuspendTime)
{
    // aws-2 was idle for an unknown time when the rule started: only aws-1,
    // whose idle time is known, is weighed.
    StateBuilder b = one_node();
    IdleRetention r(0.05);
    observe(r, b.up("aws-2", 0), 0);
    const Time t = cycles(r, b, 600, 5, 60);
    const auto out = release(r, b, t, 2);
    LONGS_EQUAL(1, out.size());
    STRCMP_EQUAL("aws-1", out[0].c_str());
}

TEST(IdleRetention, NamesOnlyNodesIdleInTheCurrentSnapshot)
{
    // slurmctld reordered its nodes: aws-1 is gone, aws-2 now first and
    // busy, where both were idle and not worth keeping a moment ago.
    StateBuilder b;
    b.group("aws", 8, 2, 0.8, 100).local("n1", 8, 8);
    IdleRetention r(0.05);
    Time t = cycles(r, b, 600, 5);
    observe(r, b.up("aws-2", 0), t += 60);
    LONGS_EQUAL(2, release(r, b, t, 2).size());
    Node aws2 = b.node("aws-2");
    aws2.alloc_cpus = 8;
    b.state.snapshot.nodes = {aws2, b.node("n1")};
    for (int i = 0; i < 2; ++i) {
        observe(r, b, t += 60);
        CHECK(release(r, b, t, 2).empty());
    }
}

TEST(IdleRetention, AKeptNodeMovedInTheSnapshotIsWeighedFromWhenItWentIdleThereAgain)
{
    // aws-1 moves behind n1 while idle: it is seen afresh, nothing stale
    // of its old place is released.
    StateBuilder b;
    b.group("aws", 8, 2, 0.8, 100).local("n1", 8, 8);
    IdleRetention r(0.05);
    Time t = cycles(r, b, 600, 5);
    auto& nodes = b.state.snapshot.nodes;
    nodes = {nodes[1], nodes[2], nodes[0]}; // aws-2 (down), n1, aws-1 (idle)
    observe(r, b, t += 60);
    const auto out = release(r, b, t, 2);
    LONGS_EQUAL(1, out.size());
    STRCMP_EQUAL("aws-1", out[0].c_str());
}

TEST(IdleRetention, KeepsAnHourlyBilledNodeUntilItsNextHourIsNear)
{
    // The history that powers a node down at once under per-second billing
    // (decisions 60 s apart), on a node launched at 0 and billed by the
    // hour: at 3360 s its hour is paid for 240 s more, at 3560 s only 40.
    StateBuilder b = one_node();
    b.state.groups[0].billing = Billing::PerHour;
    Instance launched;
    launched.node = "aws-1";
    launched.node_group = "aws";
    launched.state = InstanceState::Running;
    b.state.instances.push_back(launched);
    IdleRetention r(0.05);
    const Time t = cycles(r, b, 600, 5);
    LONGS_EQUAL(3360, t);
    CHECK(release(r, b, t, 1).empty());
    CHECK(release(r, b, t + 120, 1).empty());
    LONGS_EQUAL(1, release(r, b, t + 200, 1).size());
}

TEST(IdleRetention, AFreshNodeCostsAtLeastItsMinimumBilling)
{
    // Billed at least 600 s: V = 0.8 × 600 / 3600 + 0.05 × 8 × 100 / 3600.
    StateBuilder b = one_node();
    b.state.groups[0].min_billed = 600;
    IdleRetention r(0.05);
    DOUBLES_EQUAL(650, r.horizon(b.state.groups[0]), 1e-9);
}

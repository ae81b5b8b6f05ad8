#include "policy/cost/waiting_cost_gate.hpp"

#include <cmath>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

// 4-core nodes at 1.0 per node-hour booting in 100 s: a node running a job
// for 3500 s costs (100 + 3500) / 3600 = 1.0; a 4-core job waiting W saves
// λ · 4 · (W − 100) / 3600, so at λ = 1 it pays from W = 1000 s.
NodeGroup four_core_group(Seconds min_billed = 60)
{
    NodeGroup g;
    g.name = "g";
    g.cpus = 4;
    g.price_per_hour = 1.0;
    g.boot_time = 100;
    g.min_billed = min_billed;
    return g;
}

} // namespace

TEST_GROUP(WaitingCostGate){};

TEST(WaitingCostGate, UnsetLambdaHiresEverythingWantedEvenWithNothingWaiting)
{
    WaitingCostGate gate(HUGE_VAL);
    CHECK(gate.off());
    LONGS_EQUAL(3, gate.worth(four_core_group(), 3, {}));
}

TEST(WaitingCostGate, AWholeNodeIsHiredWhenItsJobsExpectedWaitCostsMore)
{
    const NodeGroup g = four_core_group();
    LONGS_EQUAL(1, WaitingCostGate(1).worth(g, 1, {{4, 1001, 3500}}));
    LONGS_EQUAL(0, WaitingCostGate(1).worth(g, 1, {{4, 999, 3500}}));
    // The whole expected wait counts, not one boot: at a tenth of λ a ten
    // times longer wait pays.
    LONGS_EQUAL(1, WaitingCostGate(0.1).worth(g, 1, {{4, 9200, 3500}}));
    // A job not foreseen to start locally at all is always worth a node.
    LONGS_EQUAL(1, WaitingCostGate(0.001).worth(g, 1, {{4, HUGE_VAL, 3500}}));
}

TEST(WaitingCostGate, NarrowJobsPayTheirShareOfANodeTheyFillTogether)
{
    const NodeGroup g = four_core_group();
    // Two 2-core jobs each pay half a node (0.5) from W = 1000 s at λ = 1.
    LONGS_EQUAL(1, WaitingCostGate(1).worth(g, 2, {{2, 1001, 3500}, {2, 1001, 3500}}));
    // Alone, one must pay the whole node: 2 · (W − 100) / 3600 > 1.
    LONGS_EQUAL(0, WaitingCostGate(1).worth(g, 2, {{2, 1001, 3500}}));
    LONGS_EQUAL(1, WaitingCostGate(1).worth(g, 2, {{2, 1901, 3500}}));
    // Five cores of worthy narrow jobs: a full node, and the least waiting
    // (the 1-core job) must pay a whole node for the second on its own.
    LONGS_EQUAL(1, WaitingCostGate(1).worth(g, 2, {{2, 1001, 3500}, {2, 1001, 3500}, {1, 1001, 3500}}));
    LONGS_EQUAL(1, WaitingCostGate(1).worth(g, 2, {{2, 3701, 3500}, {2, 3701, 3500}, {1, 3500, 3500}}));
    LONGS_EQUAL(2, WaitingCostGate(1).worth(g, 2, {{2, 3701, 3500}, {2, 3701, 3500}, {1, 3701, 3500}}));
}

TEST(WaitingCostGate, NeverHeadroomNeverMoreThanWanted)
{
    const NodeGroup g = four_core_group();
    LONGS_EQUAL(2, WaitingCostGate(1e6).worth(g, 3, {{4, 1000, 3500}, {2, 1000, 3500}}));
    LONGS_EQUAL(1, WaitingCostGate(1e6).worth(g, 1, {{4, 1000, 3500}, {2, 1000, 3500}}));
}

TEST(WaitingCostGate, MinimumBilledAboveTheRunRaisesTheNodeCost)
{
    // A 10 s job on a node billed 3600 s at least costs 1.0, not 110 / 3600.
    LONGS_EQUAL(0, WaitingCostGate(1).worth(four_core_group(3600), 1, {{4, 999, 10}}));
    LONGS_EQUAL(1, WaitingCostGate(1).worth(four_core_group(3600), 1, {{4, 1001, 10}}));
}

TEST(WaitingCostGate, HorizonIsTheWaitAtWhichAJobPaysAloneForItsNodes)
{
    DOUBLES_EQUAL(1000, WaitingCostGate(1).horizon(four_core_group(), 4, 3500), 1e-9);
    DOUBLES_EQUAL(100 + 3600 / 2.0, WaitingCostGate(1).horizon(four_core_group(), 2, 3500), 1e-9);
}

TEST(WaitingCostGate, PricesTheMeasuredBootNotTheConfiguredOne)
{
    // Configured 100 s, but the group's nodes took 1000 s: a node running
    // 3500 s costs (1000 + 3500) / 3600 = 1.25, and a 4-core job saves
    // 4 · (W − 1000) / 3600, so it pays from W = 2125 s.
    const NodeGroup g = four_core_group();
    WaitingCostGate gate(1);
    LONGS_EQUAL(1, gate.worth(g, 1, {{4, 2000, 3500}}));
    ClusterState state;
    state.boots = {NodeBoot{"g", 5000, 6000}};
    gate.observe(state);
    LONGS_EQUAL(0, gate.worth(g, 1, {{4, 2000, 3500}}));
    LONGS_EQUAL(1, gate.worth(g, 1, {{4, 2126, 3500}}));
    DOUBLES_EQUAL(2125, gate.horizon(g, 4, 3500), 1e-9);
}

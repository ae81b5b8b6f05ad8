#include "policy/waiting_cost_gate.hpp"

#include <cmath>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

// 4-core nodes at 1.0 per node-hour: over a 100 s boot a node costs
// 100/3600, a full node's waiting 4·λ·100/3600, so break-even is λ = 0.25
// (0.5 for a node taking 2 cores).
NodeGroup four_core_group(Seconds min_billed = 60)
{
    NodeGroup g;
    g.name = "g";
    g.cpus = 4;
    g.price_per_hour = 1.0;
    g.min_billed = min_billed;
    return g;
}

} // namespace

TEST_GROUP(WaitingCostGate){};

TEST(WaitingCostGate, UnsetLambdaHiresEverythingWantedEvenWithNothingWaiting)
{
    WaitingCostGate gate(HUGE_VAL);
    CHECK(gate.off());
    LONGS_EQUAL(3, gate.worth(four_core_group(), 3, 0, 100));
}

TEST(WaitingCostGate, FullNodeBreakEvenIsThePricePerCoreHour)
{
    LONGS_EQUAL(1, WaitingCostGate(0.26).worth(four_core_group(), 1, 4, 100));
    LONGS_EQUAL(0, WaitingCostGate(0.24).worth(four_core_group(), 1, 4, 100));
}

TEST(WaitingCostGate, PartlyFilledLastNodeNeedsTheHigherLambda)
{
    // 6 waiting cores: a full node and one taking 2 cores.
    LONGS_EQUAL(1, WaitingCostGate(0.3).worth(four_core_group(), 2, 6, 100));
    LONGS_EQUAL(1, WaitingCostGate(0.49).worth(four_core_group(), 2, 6, 100));
    LONGS_EQUAL(2, WaitingCostGate(0.51).worth(four_core_group(), 2, 6, 100));
    // Nodes beyond the waiting work (headroom) are never worth it.
    LONGS_EQUAL(2, WaitingCostGate(1e6).worth(four_core_group(), 3, 6, 100));
    // Never more than wanted.
    LONGS_EQUAL(1, WaitingCostGate(1e6).worth(four_core_group(), 1, 6, 100));
}

TEST(WaitingCostGate, MinimumBilledAboveTheWaitRaisesTheNodeCost)
{
    // Billed 400 s at least: a full node needs 4·λ·100 > 400.
    LONGS_EQUAL(0, WaitingCostGate(0.99).worth(four_core_group(400), 1, 4, 100));
    LONGS_EQUAL(1, WaitingCostGate(1.01).worth(four_core_group(400), 1, 4, 100));
}

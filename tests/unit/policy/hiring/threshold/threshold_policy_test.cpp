#include "policy/hiring/threshold/threshold_policy.hpp"

#include "policy/policy_test_state.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::actions;
using burst::test::StateBuilder;

TEST_GROUP(ThresholdPolicy){};

TEST(ThresholdPolicy, HiresToTheTargetAndScalesDownOnlyAfterTheWindow)
{
    PolicyParams p;
    p.set("target_utilization=0.8");
    p.set("stabilization=300");
    ThresholdPolicy policy(p);
    ManualClock clock(0);

    StateBuilder busy;
    busy.local("n1", 8, 8).group("g", 4, 4, 1.0).pending(1, 4).pending(2, 4);
    // (8 busy + 8 waiting) / 0.8 = 20 cores: 12 in the cloud, 3 nodes.
    Decision d = policy.decide(busy.state, clock);
    auto hires = actions<HireNodes>(d);
    LONGS_EQUAL(1, hires.size());
    LONGS_EQUAL(3, hires[0].count);
    LONGS_EQUAL(2, actions<RouteToCloud>(d).size());

    StateBuilder calm;
    calm.local("n1", 8, 8).group("g", 4, 4, 1.0).up("g-1").up("g-2").up("g-3");
    clock.set(100); // 10 cores wanted now, but 12 were wanted 100 s ago
    CHECK(actions<ReleaseNodes>(policy.decide(calm.state, clock)).empty());
    clock.set(500); // the window has passed: keep 2 cloud cores' worth, release 2 nodes
    auto releases = actions<ReleaseNodes>(policy.decide(calm.state, clock));
    LONGS_EQUAL(1, releases.size());
    LONGS_EQUAL(2, releases[0].nodes.size());
}

TEST(ThresholdPolicy, DoesNothingBelowTheTarget)
{
    PolicyParams p;
    ThresholdPolicy policy(p);
    ManualClock clock(0);
    StateBuilder b;
    b.local("n1", 8, 4).group("g", 4, 4, 1.0).pending(1, 2);
    CHECK(policy.decide(b.state, clock).actions.empty());
}

TEST(ThresholdPolicy, QueueMetricHiresOneNodePerTargetWaitingJobs)
{
    PolicyParams p;
    p.set("metric=queue");
    p.set("target_queue=2");
    ThresholdPolicy policy(p);
    ManualClock clock(0);
    StateBuilder b;
    b.local("n1", 8, 8).group("g", 4, 8, 1.0).pending(1, 1).pending(2, 1).pending(3, 1).pending(4, 1).pending(5, 1);
    auto hires = actions<HireNodes>(policy.decide(b.state, clock));
    LONGS_EQUAL(1, hires.size());
    LONGS_EQUAL(3, hires[0].count); // ceil(5 / 2) nodes
}

TEST(ThresholdPolicy, LambdaHiresOnlyNodesTheWaitingWorksExpectedWaitPaysFor)
{
    // (8 busy + 8 waiting) / 0.8 wants 3 4-core nodes at 1.0/h, 100 s boot.
    // The 8 local cores come back at `back` (the running job's limit; no
    // runtimes learned yet): both 4-core jobs (1 h) start then.  A node
    // costs (100 + 3600) / 3600 ≈ 1.028 and saves λ · 4 · (back − 100) /
    // 3600; the headroom node is never worth it.
    auto hire = [](const char* lambda, Seconds back, Seconds measured_boot = 0) {
        PolicyParams p;
        p.set("lambda", lambda);
        ThresholdPolicy policy(p);
        ManualClock clock(0);
        StateBuilder busy;
        busy.local("n1", 8, 8).group("g", 4, 4, 1.0).running(9, 8, 0, "r", back);
        if (measured_boot > 0)
            busy.booted_once("g", measured_boot);
        busy.pending(1, 4, BurstOption::Allow, "c", 3600).pending(2, 4, BurstOption::Allow, "c", 3600);
        return policy.decide(busy.state, clock);
    };
    Decision above = hire("1.1", 1000);
    LONGS_EQUAL(2, actions<HireNodes>(above)[0].count);
    LONGS_EQUAL(2, actions<RouteToCloud>(above).size());
    Decision below = hire("1.0", 1000);
    CHECK(actions<HireNodes>(below).empty());
    CHECK(actions<RouteToCloud>(below).empty());
    // At λ below the core-hour price (0.25) a long enough wait still pays:
    // the gate prices the expected wait, not one boot time.
    LONGS_EQUAL(2, actions<HireNodes>(hire("0.1", 36000))[0].count);
    CHECK(actions<HireNodes>(hire("0.1", 9000)).empty());
    // Nodes measured to boot in 900 s, not 100: a node costs (900 + 3600) /
    // 3600 = 1.25 and saves 1.1 · 4 · (1000 − 900) / 3600 ≈ 0.12.
    CHECK(actions<HireNodes>(hire("1.1", 1000, 900)).empty());
}

namespace {

Decision decide_with_metric(const char* metric, const StateBuilder& b, const char* target = "0.5")
{
    PolicyParams p;
    p.set("metric", metric);
    p.set("target_utilization", target);
    ThresholdPolicy policy(p);
    ManualClock clock(0);
    return policy.decide(b.state, clock);
}

std::uint32_t nodes_hired(const Decision& d)
{
    auto hires = actions<HireNodes>(d);
    return hires.empty() ? 0 : hires[0].count;
}

} // namespace

TEST(ThresholdPolicy, HpaCannotSeeTheQueue)
{
    // 20 waiting 8-core jobs that do not fit the idle 4-core site: nothing
    // is busy, so HPA's utilization is 0 and it hires nothing; demand
    // counts the waiting cores.
    StateBuilder b;
    b.local("n1", 4, 0).group("g", 4, 40, 1.0);
    for (JobId id = 1; id <= 20; ++id)
        b.pending(id, 8);
    LONGS_EQUAL(0, nodes_hired(decide_with_metric("hpa", b)));
    LONGS_EQUAL(40, nodes_hired(decide_with_metric("utilization", b)));
}

TEST(ThresholdPolicy, HpaSizesTheSiteToBusyCoresOverTheTarget)
{
    // 8 busy of 8 cores at target 50%: 16 cores, 2 cloud nodes, whatever
    // waits; demand wants (8 busy + 8 waiting) / 50% = 32, 6 nodes.
    StateBuilder b;
    b.local("n1", 8, 8).group("g", 4, 8, 1.0).pending(1, 4).pending(2, 4);
    LONGS_EQUAL(2, nodes_hired(decide_with_metric("hpa", b)));
    LONGS_EQUAL(6, nodes_hired(decide_with_metric("utilization", b)));
}

TEST(ThresholdPolicy, HpaWithinHpasToleranceOfTheTargetChangesNothing)
{
    // 16 local and 16 cloud cores, target 50%.  17 busy: utilization is
    // 1.06 times the target, inside HPA's 10%: no hire (17 / 50% = 34
    // cores would be one more node).  19 busy: 1.19 times, 38 cores, 2 nodes.
    StateBuilder b;
    b.local("n1", 16, 16).group("g", 4, 8, 1.0).up("g-1", 1).up("g-2").up("g-3").up("g-4");
    LONGS_EQUAL(0, nodes_hired(decide_with_metric("hpa", b)));
    b.node("g-1").alloc_cpus = 3;
    LONGS_EQUAL(2, nodes_hired(decide_with_metric("hpa", b)));
}

TEST(ThresholdPolicy, HpaCountsJobsOnBootingNodesAsUsingNothingYet)
{
    // 8 of 8 local cores busy and two 4-core nodes booting with jobs Slurm
    // has placed on them: 8 of 16 cores run, 50% utilization, on target
    // (HPA counts pods not yet ready at zero use).
    StateBuilder b;
    b.local("n1", 8, 8).group("g", 4, 8, 1.0).up("g-1", 4).up("g-2", 4);
    b.node("g-1").flags |= kNodePoweringUp;
    b.node("g-2").flags |= kNodePoweringUp;
    LONGS_EQUAL(0, nodes_hired(decide_with_metric("hpa", b)));
}

#include "sim/clairvoyant_policy.hpp"

#include "sim/simulator.hpp"

#include <cmath>

#include "sim_fixtures.hpp"

using namespace burst;
using namespace burst::test;

namespace {

// 8 local cores; one 8-core node at 0.8 per hour booting in exactly 100 s,
// billed at least 600 s; decisions every 60 s.
SimConfig one_node_site()
{
    SimConfig config = local_site(8, 32, 60);
    config.groups = {cloud_group("aws", 8, 0.8, 100, 1, 600)};
    return config;
}

} // namespace

TEST_GROUP(ClairvoyantPolicy){};

TEST(ClairvoyantPolicy, BurstPlanPaysWholeNodesOrAShareOfOne)
{
    const SimConfig config = one_node_site();
    // 2 cores for 200 s arriving at the first decision: no node can be
    // hired earlier, so it waits the boot.  A whole node billed 600 s, or a
    // quarter of 300 s; plus λ × 2 cores × 100 s.
    BurstPlan p = burst_plan(config, trace_job(1, 0, 2, 200), 1, 0);
    DOUBLES_EQUAL(0.8 * 600 / 3600 + 2 * 100 / 3600.0, p.cost, 1e-12);
    LONGS_EQUAL(0, p.group);
    DOUBLES_EQUAL(100, p.wait, 1e-12);
    p = burst_plan(config, trace_job(1, 0, 2, 200), 1, 0, true);
    DOUBLES_EQUAL(0.8 * 300 / 4 / 3600 + 2 * 100 / 3600.0, p.cost, 1e-12);
    // 16 cores do not fit one node of a one-node group.
    p = burst_plan(config, trace_job(2, 0, 16, 200), 1, 0);
    CHECK(std::isinf(p.cost));
    LONGS_EQUAL(-1, p.group);
}

TEST(ClairvoyantPolicy, BurstPlanHiresAheadWhenTheWaitSavedIsWorthTheIdleNode)
{
    SimConfig config = one_node_site();
    // Arriving at 610: routed at the decision at 660.  Hired at 540 (two
    // cycles ahead) the node is up at 640 and the job waits only the 50 s to
    // that decision; the node idles 20 s, inside the 600 s minimum.
    BurstPlan p = burst_plan(config, trace_job(1, 610, 2, 200), 1, 0);
    DOUBLES_EQUAL(660, p.route_at, 1e-12);
    DOUBLES_EQUAL(540, p.hire_at, 1e-12);
    DOUBLES_EQUAL(50, p.wait, 1e-12);
    DOUBLES_EQUAL(0.8 * 600 / 3600 + 2 * 50 / 3600.0, p.cost, 1e-12);
    // Waiting free and no minimum: the idle 20 s (and the 40 s to the
    // decision after the job ends) are not worth it; hired at routing.
    config.groups[0].min_billed = 0;
    p = burst_plan(config, trace_job(1, 610, 2, 200), 0, 0);
    DOUBLES_EQUAL(660, p.hire_at, 1e-12);
    DOUBLES_EQUAL(150, p.wait, 1e-12);
}

TEST(ClairvoyantPolicy, PreHiresSoTheJobDoesNotWaitTheBootAndReleasesTheNodeWhenItIsDone)
{
    SimConfig config = one_node_site();
    config.groups[0].min_billed = 0;
    config.suspend_time = 300;
    // Job 1 holds the local cores for an hour; job 2 arrives at 610 and is
    // chosen to burst.
    const std::vector<TraceJob> trace = {trace_job(1, 0, 8, 3600), trace_job(2, 610, 8, 600)};
    ClairvoyantPolicy policy(config, trace, BurstSet{{2, "aws"}}, 1.0);
    const SimResult r = simulate(config, trace, policy);
    const JobOutcome* burst = nullptr;
    for (const auto& j : r.jobs)
        if (j.id == 2)
            burst = &j;
    CHECK(burst != nullptr);
    LONGS_EQUAL(0, burst->group);
    // Started at its routing decision on the node hired at 540, instead of
    // booting one then (it would start at 760).
    DOUBLES_EQUAL(660, burst->start, 1e-9);
    LONGS_EQUAL(1, r.instances.size());
    DOUBLES_EQUAL(540, r.instances[0].launched, 1e-9);
    // Powered down by the decision at its end (1260), not 300 s SuspendTime
    // later.
    DOUBLES_EQUAL(1260, r.instances[0].down, 1e-9);
    LONGS_EQUAL(0, r.actions_rejected);
}

TEST(ClairvoyantPolicy, RoutesNoEarlierThanItIsToldAndStillHiresAhead)
{
    SimConfig config = one_node_site();
    config.groups[0].min_billed = 0;
    const std::vector<TraceJob> trace = {trace_job(1, 0, 8, 3600), trace_job(2, 610, 8, 600)};
    // Not before 700: routed at the decision at 720 on a node hired at 600.
    ClairvoyantPolicy policy(config, trace, BurstSet{{2, "aws"}}, 1.0, {{2, 700}});
    const SimResult r = simulate(config, trace, policy);
    for (const auto& j : r.jobs)
        if (j.id == 2)
            DOUBLES_EQUAL(720, j.start, 1e-9);
    LONGS_EQUAL(1, r.instances.size());
    DOUBLES_EQUAL(600, r.instances[0].launched, 1e-9);
}

#include "sim/clairvoyant_policy.hpp"

#include <cmath>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

TraceJob job(JobId id, std::uint32_t cpus, Seconds runtime)
{
    TraceJob t;
    t.id = id;
    t.cpus = cpus;
    t.runtime = runtime;
    return t;
}

} // namespace

TEST_GROUP(ClairvoyantPolicy){};

TEST(ClairvoyantPolicy, BurstsExactlyTheJobsWhoseNoBurstWaitCostsMoreThanTheCloud)
{
    SimConfig config;
    config.local_cores = 8;
    NodeGroup g;
    g.name = "aws";
    g.cpus = 8;
    g.price_per_hour = 0.8;
    g.boot_time = 100;
    g.max_count = 2;
    config.groups = {g};
    // Job 2 waited 10 h (8 cores × 10 h × λ=1 = 80 > ~0.9 + 0.2), job 3
    // waited 50 s (less than the boot: never worth it), job 1 did not wait.
    std::vector<TraceJob> trace = {job(1, 8, 3600), job(2, 8, 3600), job(3, 8, 3600)};
    SimResult never;
    // (id, account, cpus, submit, eligible, start, end, group)
    never.jobs = {{1, "", 8, 0, 0, 0, 3600, -1}, {2, "", 8, 0, 0, 36000, 39600, -1}, {3, "", 8, 0, 0, 50, 3650, -1}};
    ClairvoyantPolicy oracle(config, trace, never, 1.0);
    LONGS_EQUAL(1, oracle.chosen());

    ClusterState state;
    for (JobId id : {1u, 2u, 3u}) {
        Job j;
        j.id = id;
        j.partitions = {"local"};
        state.snapshot.jobs.push_back(j);
    }
    ManualClock clock(0);
    Decision d = oracle.decide(state, clock);
    LONGS_EQUAL(1, d.actions.size());
    const auto* route = std::get_if<RouteToCloud>(&d.actions[0].what);
    CHECK(route != nullptr);
    LONGS_EQUAL(2, route->job);
    STRCMP_EQUAL("aws", route->group.c_str());
    // Once routed it is not routed again.
    state.snapshot.jobs[1].partitions.push_back("aws");
    CHECK(oracle.decide(state, clock).actions.empty());
    // Waiting for free: nothing is worth bursting.
    CHECK(ClairvoyantPolicy(config, trace, never, 0).chosen() == 0);
}

TEST(ClairvoyantPolicy, BurstCostPaysWholeNodesOrAShareOfOne)
{
    SimConfig config;
    config.local_cores = 8;
    NodeGroup g;
    g.name = "aws";
    g.cpus = 8;
    g.price_per_hour = 0.8;
    g.boot_time = 100;
    g.min_billed = 600;
    g.max_count = 1;
    config.groups = {g};
    int group = -1;
    // 2 cores for 200 s: a whole node billed 600 s, or a quarter of 300 s; plus λ × 2 cores × 100 s.
    DOUBLES_EQUAL(0.8 * 600 / 3600 + 2 * 100 / 3600.0, burst_cost(config, job(1, 2, 200), 1, group), 1e-12);
    LONGS_EQUAL(0, group);
    DOUBLES_EQUAL(0.8 * 300 / 4 / 3600 + 2 * 100 / 3600.0, burst_cost(config, job(1, 2, 200), 1, group, true),
                  1e-12);
    // 16 cores do not fit one node of a one-node group.
    CHECK(std::isinf(burst_cost(config, job(2, 16, 200), 1, group)));
    LONGS_EQUAL(-1, group);
}

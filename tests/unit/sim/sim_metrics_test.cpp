#include "sim/sim_metrics.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(SimMetrics){};

TEST(SimMetrics, ComputesWaitsSlowdownMakespanAndObjective)
{
    SimResult r;
    r.first_submit = 100;
    // (id, account, cpus, submit, start, end, group)
    r.jobs = {{1, "a", 2, 100, 100, 200, -1},
              {2, "a", 4, 100, 136, 141, -1},  // wait 36 s, run 5 s: slowdown (36+5)/10
              {3, "b", 1, 110, 146, 1146, 0}}; // wait 36 s on the cloud
    r.cloud_cost = 3;
    r.account_cost = {{"b", 1}};
    SimMetrics m = compute_metrics(r, 10, 10);
    LONGS_EQUAL(3, m.jobs);
    LONGS_EQUAL(1, m.cloud_jobs);
    DOUBLES_EQUAL(24, m.mean_wait, 1e-9);
    DOUBLES_EQUAL(36, m.median_wait, 1e-9);
    DOUBLES_EQUAL(36, m.p95_wait, 1e-9);
    DOUBLES_EQUAL((1 + 4.1 + 1.036) / 3, m.mean_bounded_slowdown, 1e-9);
    DOUBLES_EQUAL(1046, m.makespan, 1e-9);
    DOUBLES_EQUAL(1000, m.cloud_core_seconds, 1e-9);
    DOUBLES_EQUAL((4 * 36 + 36) / 3600.0, m.waiting_core_hours, 1e-12);
    DOUBLES_EQUAL(3 + 10 * (180 / 3600.0), m.objective, 1e-9);
    DOUBLES_EQUAL(2, m.account_cost.at(""), 1e-12);
}

TEST(SimMetrics, EmptyRunIsAllZero)
{
    SimMetrics m = compute_metrics(SimResult{}, 1);
    LONGS_EQUAL(0, m.jobs);
    DOUBLES_EQUAL(0, m.objective, 0);
}

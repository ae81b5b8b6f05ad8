#include "sim/report/sim_metrics.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(SimMetrics){};

TEST(SimMetrics, ComputesWaitsSlowdownMakespanAndObjective)
{
    SimResult r;
    r.first_submit = 100;
    // (id, account, cpus, submit, eligible, start, end, group)
    r.jobs = {{1, "a", 2, 100, 100, 100, 200, -1},
              {2, "a", 4, 100, 100, 136, 141, -1},  // wait 36 s, run 5 s: slowdown (36+5)/10
              {3, "b", 1, 110, 110, 146, 1146, 0}}; // wait 36 s on the cloud
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

TEST(SimMetrics, WasteShortageElasticityAndBudgetViolations)
{
    SimResult r;
    r.first_submit = 0;
    r.jobs = {{1, "a", 4, 0, 0, 100, 3700, 0},      // cloud, waited 100 s (the boot)
              {2, "a", 2, 0, 0, 0, 10000, -1}};     // local, makespan 10000 s
    // One 8-core node at 3.6/h up from 0 to 3900 s: 8 × 3900 powered, 4 × 3600 busy.
    r.instances = {{0, 8, 3.6, 0, 3900}};
    r.cloud_cost = 3.9;
    r.provisioning.samples = 4;
    r.provisioning.under_samples = 1;
    r.provisioning.over_samples = 2;
    r.provisioning.under_cores = 10;
    r.provisioning.over_cores = 30;
    r.provisioning.capacity = 50;
    SimMetrics m = compute_metrics(r, 2, 10, 3.0, 3600);
    DOUBLES_EQUAL(8 * 3900 - 4 * 3600, m.waste_core_seconds, 1e-9);
    DOUBLES_EQUAL(400, m.shortage_core_seconds, 1e-9);
    DOUBLES_EQUAL(10.0 / 200, m.a_under, 1e-12);
    DOUBLES_EQUAL(30.0 / 200, m.a_over, 1e-12);
    DOUBLES_EQUAL(0.25, m.t_under, 1e-12);
    DOUBLES_EQUAL(0.5, m.t_over, 1e-12);
    // Intervals [0,1h) [1h,2h) [2h,3h): 3.6 spent in the first (> 3.0), 0.3 in the second.
    LONGS_EQUAL(3, m.budget_intervals);
    LONGS_EQUAL(1, m.budget_violations);
    DOUBLES_EQUAL(3.9 + 5 * 400 / 3600.0, objective_at(m, 5), 1e-9);
    DOUBLES_EQUAL(3.6, m.max_interval_spend, 1e-9);
}

TEST(SimMetrics, WaitsCountFromEligibilityAndIdleTailsFallInTheirOwnIntervals)
{
    SimResult r;
    r.first_submit = 0;
    // A workflow task submitted at 0, eligible at 500 when its parent ended, started at 530.
    r.jobs = {{1, "a", 1, 0, 0, 0, 500, 0}, {2, "a", 1, 0, 500, 530, 3000, 0}};
    // The node stays up 600 s past the last job: 3000..3600 is a second hour.
    r.instances = {{0, 1, 3.6, 0, 3600 + 600}};
    SimMetrics m = compute_metrics(r, 1, 10, 3.5, 3600);
    DOUBLES_EQUAL(15, m.mean_wait, 1e-9);
    LONGS_EQUAL(2, m.budget_intervals);
    LONGS_EQUAL(1, m.budget_violations); // 3.6 in the first hour
    DOUBLES_EQUAL(3.6, m.max_interval_spend, 1e-9);
}

// Per-hour billing: a node suspended 600 s into its hour is billed all of
// it, and the one hired meanwhile is billed on top: 3.6 + 3.0 in the first
// hour against a budget of 3.6, where their uptimes (0.6 + 0.6) fit.
TEST(SimMetrics, BudgetIntervalsBookEachInstancesBilledTimeNotItsUptime)
{
    SimResult r;
    r.first_submit = 0;
    r.jobs = {{1, "a", 1, 0, 0, 30, 500, 0}, {2, "a", 1, 600, 600, 630, 1200, 0}};
    r.instances = {{0, 1, 3.6, 0, 600, 30, 3600}, {0, 1, 3.6, 600, 1200, 630, 4200}};
    SimMetrics m = compute_metrics(r, 1, 10, 3.6, 3600);
    LONGS_EQUAL(2, m.budget_intervals);
    LONGS_EQUAL(1, m.budget_violations);
    DOUBLES_EQUAL(6.6, m.max_interval_spend, 1e-9);
}

// An instance billed past the last job's end books the intervals its
// billed time reaches (a MinBilled of 7000 s for 100 s up).
TEST(SimMetrics, BilledTimePastTheLastJobFallsInItsOwnIntervals)
{
    SimResult r;
    r.first_submit = 0;
    r.jobs = {{1, "a", 1, 0, 0, 30, 100, 0}};
    r.instances = {{0, 1, 3.6, 0, 100, 30, 7000}};
    SimMetrics m = compute_metrics(r, 1, 10, 3.0, 3600);
    LONGS_EQUAL(2, m.budget_intervals);
    LONGS_EQUAL(2, m.budget_violations); // 3.6 and 3.4
    DOUBLES_EQUAL(3.6, m.max_interval_spend, 1e-9);
}

TEST(SimMetrics, InteractiveTimeToStartApartFromBatchWaitsAndHeldCoreHours)
{
    SimResult r;
    r.first_submit = 0;
    JobOutcome batch{1, "a", 1, 0, 0, 3600, 7200, -1};
    JobOutcome late_batch{2, "a", 1, 0, 0, 7200, 9000, -1};
    JobOutcome session{3, "a", 1, 100, 100, 100, 200, -1, true};
    JobOutcome slow_session{4, "a", 1, 100, 100, 160, 300, -1, true};
    r.jobs = {batch, late_batch, session, slow_session};
    r.held_core_seconds = 5400;
    const SimMetrics m = compute_metrics(r, 1, 10);
    LONGS_EQUAL(2, m.interactive_jobs);
    DOUBLES_EQUAL(0, m.median_interactive_start, 1e-9);
    DOUBLES_EQUAL(60, m.p95_interactive_start, 1e-9);
    DOUBLES_EQUAL(5400, m.mean_batch_wait, 1e-9);
    DOUBLES_EQUAL(3600, m.median_batch_wait, 1e-9);
    DOUBLES_EQUAL(1.5, m.held_core_hours, 1e-12);
}

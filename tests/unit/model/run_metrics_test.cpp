#include "model/run_metrics.hpp"

#include <cmath>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(RunMetrics){};

// Three jobs of two accounts, one on a cloud node that was powered for
// 1000 s with 8 cores: hand-computed waits, slowdowns, waste and costs.
TEST(RunMetrics, AccumulatesJobsCloudTimeAndCostsOfTwoAccounts)
{
    RunMetrics m(10, true);
    m.submitted(100);
    m.submitted(90);
    m.job_started(2, 0);     // a: local, runs 100 s
    m.job_started(4, 36);    // a: local, runs 5 s: slowdown (36 + 5) / 10
    m.job_started(1, 120);   // b: cloud (boot 120 s), runs 400 s
    m.job_ended(0, 100, 200);
    m.job_ended(36, 5, 141);
    m.job_ended(120, 400, 650);
    m.cloud_busy(1 * 400);
    m.cloud_powered(8 * 1000);
    m.cloud_cost(0.5);
    m.account_cost("b", 0.125);
    m.account_cost("a", 0.0);

    LONGS_EQUAL(3, m.jobs_started());
    LONGS_EQUAL(3, m.jobs_ended());
    DOUBLES_EQUAL(52, m.mean_wait(), 1e-12);
    DOUBLES_EQUAL(36, m.wait_quantile(0.5), 0);
    DOUBLES_EQUAL(120, m.wait_quantile(0.95), 0);
    DOUBLES_EQUAL((1 + 4.1 + 1.3) / 3, m.mean_bounded_slowdown(), 1e-12);
    DOUBLES_EQUAL(560, m.makespan(), 0); // 650 − 90
    DOUBLES_EQUAL((4 * 36 + 120) / 3600.0, m.waiting_core_hours(), 1e-12);
    DOUBLES_EQUAL(264, m.shortage_core_seconds(), 1e-9);
    DOUBLES_EQUAL(7600, m.waste_core_seconds(), 0);
    DOUBLES_EQUAL(0.5 + 2 * 264 / 3600.0, m.objective(2), 1e-12);
    auto costs = m.account_costs();
    LONGS_EQUAL(3, costs.size());
    DOUBLES_EQUAL(0.125, costs.at("b"), 0);
    DOUBLES_EQUAL(0, costs.at("a"), 0);
    DOUBLES_EQUAL(0.375, costs.at(""), 1e-12);
}

TEST(RunMetrics, WasteNeverGoesNegativeAndEmptyReadsZero)
{
    RunMetrics m;
    DOUBLES_EQUAL(0, m.mean_wait(), 0);
    DOUBLES_EQUAL(0, m.wait_quantile(0.95), 0);
    DOUBLES_EQUAL(0, m.mean_bounded_slowdown(), 0);
    DOUBLES_EQUAL(0, m.makespan(), 0);
    m.cloud_busy(100); // a job that ran on a node powered before counting began
    DOUBLES_EQUAL(0, m.waste_core_seconds(), 0);
    DOUBLES_EQUAL(0, m.account_costs().at(""), 0);
}

TEST(RunMetrics, ProvisioningSamplesGiveAccuracyAndTimeShare)
{
    RunMetrics m;
    ProvisioningSamples& p = m.provisioning();
    p.capacity = 100;
    p.add(80, 64);  // 16 short
    p.add(64, 64);
    p.add(10, 74);  // 64 surplus
    p.add(0, 64);   // 64 surplus
    DOUBLES_EQUAL(16 / 400.0, p.a_under(), 1e-15);
    DOUBLES_EQUAL(128 / 400.0, p.a_over(), 1e-15);
    DOUBLES_EQUAL(0.25, p.t_under(), 0);
    DOUBLES_EQUAL(0.5, p.t_over(), 0);
    ProvisioningSamples unsized;
    unsized.add(0, 0);
    DOUBLES_EQUAL(0, unsized.a_under(), 0); // no R to relate to
}

TEST(RunMetrics, ProvisioningSamplesWithDemandBeyondEveryCoreAreLeftOut)
{
    ProvisioningSamples p;
    p.capacity = 100;
    p.add(300, 100); // no supply could meet it: Ilyushkin et al. skip it
    p.add(120, 100);
    p.add(100, 60);  // 40 short, and counted
    p.add(50, 100);  // 50 surplus
    LONGS_EQUAL(2, p.samples);
    LONGS_EQUAL(2, p.beyond_capacity);
    DOUBLES_EQUAL(40 / 200.0, p.a_under(), 1e-15);
    DOUBLES_EQUAL(50 / 200.0, p.a_over(), 1e-15);
    DOUBLES_EQUAL(0.5, p.t_under(), 0);
}

TEST(RunMetrics, ABudgetIntervalViolatesOnceHoweverOftenItIsSeenOver)
{
    RunMetrics m;
    m.budget_spend("a/86400", 0, 4, 5);
    m.budget_spend("a/86400", 0, 6, 5);
    m.budget_spend("a/86400", 0, 7, 5);
    m.budget_spend("b/3600", 0, 5, 5);            // equal is within budget
    m.budget_spend("b/3600", 3600, 5 * (1 + 1e-12), 5); // rounding noise too
    m.budget_spend("a/86400", 86400, 1, 5);
    LONGS_EQUAL(4, m.budget_intervals());
    LONGS_EQUAL(1, m.budget_violations());
    DOUBLES_EQUAL(7, m.max_interval_spend(), 0);
}

TEST(RunMetrics, HistogramBucketsAreZeroThenPowersOfRootTwo)
{
    const auto& b = WaitHistogram::bounds();
    DOUBLES_EQUAL(0, b[0], 0);
    DOUBLES_EQUAL(1, b[1], 0);
    DOUBLES_EQUAL(std::sqrt(2.0), b[2], 0);
    DOUBLES_EQUAL(2, b[3], 0);
    DOUBLES_EQUAL(4194304, b.back(), 0); // 2^22 s
    WaitHistogram h;
    h.add(0);
    h.add(0);
    h.add(3);   // (2.83, 4]
    h.add(100); // (90.5, 128]
    h.add(1e7); // +Inf
    LONGS_EQUAL(5, h.count());
    LONGS_EQUAL(2, h.counts()[0]);
    LONGS_EQUAL(1, h.counts()[5]);
    LONGS_EQUAL(1, h.counts()[15]);
    LONGS_EQUAL(1, h.counts()[WaitHistogram::kFiniteBuckets]);
    DOUBLES_EQUAL(0, h.quantile(0.4), 0);
    DOUBLES_EQUAL(4 / std::pow(2.0, 0.25), h.quantile(0.6), 1e-12);
    DOUBLES_EQUAL(128 / std::pow(2.0, 0.25), h.quantile(0.8), 1e-12);
    DOUBLES_EQUAL(1e7, h.quantile(1), 0); // the +Inf bucket reads as the largest wait
}

// Without every wait kept, quantiles come from the histogram: within a
// factor 2^(1/4) of the exact nearest rank for waits of 1 s and more.
TEST(RunMetrics, HistogramQuantilesStayWithinTheirDocumentedError)
{
    RunMetrics exact(10, true), bounded(10, false);
    double w = 1;
    for (int i = 0; i < 5000; ++i) {
        w = std::fmod(w * 1.37 + 17, 200000) + 1;
        exact.job_started(1, std::floor(w));
        bounded.job_started(1, std::floor(w));
    }
    for (double q : {0.05, 0.5, 0.9, 0.95, 0.99}) {
        const double ratio = bounded.wait_quantile(q) / exact.wait_quantile(q);
        CHECK_TEXT(ratio <= std::pow(2.0, 0.25) + 1e-12 && ratio >= std::pow(2.0, -0.25) - 1e-12,
                   ("quantile " + std::to_string(q) + " ratio " + std::to_string(ratio)).c_str());
    }
    DOUBLES_EQUAL(exact.mean_wait(), bounded.mean_wait(), 0);
}

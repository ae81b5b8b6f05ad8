#include "sim/report/reward_profit.hpp"

#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

TraceJob trace_job(JobId id, std::vector<JobId> parents = {})
{
    TraceJob t;
    t.id = id;
    t.parents = std::move(parents);
    return t;
}

} // namespace

TEST_GROUP(RewardProfit){};

TEST(RewardProfit, PaysEachIndependentJobUnderBothSchemesAndChargesBothTiers)
{
    SimResult r;
    // (id, account, cpus, submit, eligible, start, end, group)
    r.jobs = {{1, "a", 2, 0, 0, 0, 3600, -1},     // local, t = 1 h
              {2, "a", 4, 600, 600, 1200, 1800, 0}, // cloud, t = 1200 s from submission
              {3, "b", 1, 0, 0, 5, 5, -1}};        // zero length: t floored at τ
    const std::vector<TraceJob> trace{trace_job(1), trace_job(2), trace_job(3)};
    r.cloud_cost = 7;
    RewardScheme s;
    s.lambda = 2;
    s.reward_max = 10;
    s.local_price = 0.5;
    const double local_cost = 0.5 * 2 * 3600 / 3600.0; // job 3 ran no core-seconds
    const RewardProfit p = reward_profit(trace, r, s);
    DOUBLES_EQUAL(2 * (10 - 2.0) + 4 * (10 - 1200 * 2 / 3600.0) + 1 * (10 - 5 * 2 / 3600.0) - 7 - local_cost, p.time,
                  1e-9);
    // R_scale = λ·3600 by default.
    DOUBLES_EQUAL(2 * 7200 / 3600.0 + 4 * 7200 / 1200.0 + 1 * 7200 / 10.0 - 7 - local_cost, p.throughput, 1e-9);

    s.reward_scale = 100;
    s.tau = 50;
    DOUBLES_EQUAL(2 * 100 / 3600.0 + 4 * 100 / 1200.0 + 1 * 100 / 50.0 - 7 - local_cost,
                  reward_profit(trace, r, s).throughput, 1e-9);
}

TEST(RewardProfit, PaysAPipelineOnceForItsWholeTimeFromSubmission)
{
    // Stages 1 → 2 → 3 submitted together at 100 (one 2-core stage: d = 2),
    // the last ending at 3700: one pipeline, t = 1 h.  Job 4 is on its own.
    SimResult r;
    r.jobs = {{1, "a", 1, 100, 100, 100, 1000, -1},
              {2, "a", 2, 100, 1000, 1500, 2000, -1},
              {3, "a", 1, 100, 2000, 2000, 3700, 0},
              {4, "a", 1, 0, 0, 0, 1800, -1}};
    const std::vector<TraceJob> trace{trace_job(1), trace_job(2, {1}), trace_job(3, {2}), trace_job(4)};
    RewardScheme s;
    s.lambda = 1;
    s.reward_scale = 3600;
    const RewardProfit p = reward_profit(trace, r, s);
    DOUBLES_EQUAL(2 * 3600 / 3600.0 + 1 * 3600 / 1800.0, p.throughput, 1e-9);
    DOUBLES_EQUAL(-2 * 1.0 - 1 * 0.5, p.time, 1e-9);
}

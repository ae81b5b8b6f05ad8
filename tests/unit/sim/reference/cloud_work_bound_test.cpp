#include "sim/reference/cloud_work_bound.hpp"

#include "sim/sim_fixtures.hpp"

using namespace burst;
using namespace burst::test;

TEST_GROUP(CloudWorkBound){};

TEST(CloudWorkBound, EarliestDeadlineFirstDoesTheMostLocalWork)
{
    // One core; A is listed first but due later: doing A first would leave
    // B unfinished, EDF does both.
    CHECK(max_local_work({{0, 20, 10}, {0, 10, 10}}, 1) == 20);
    // Two jobs due together on one core: only one fits.
    CHECK(max_local_work({{0, 10, 10}, {0, 10, 10}}, 1) == 10);
    // A window shorter than its work at full rate, and an idle gap.
    CHECK(max_local_work({{0, 5, 10}, {100, 110, 10}}, 1) == 15);
    // Work released later preempts work due later.
    CHECK(max_local_work({{0, 100, 50}, {10, 20, 10}}, 1) == 60);
    CHECK(max_local_work({}, 4) == 0);
}

TEST(CloudWorkBound, ZeroForARunThatNeverBurstAndBelowTheHandOptimum)
{
    SimConfig config;
    config.local_cores = 4;
    config.groups = {cloud_group("aws", 4, 0.4, 120, 2, 60)};
    SimResult local_only;
    local_only.jobs = {{1, "", 4, 0, 0, 0, 3600, -1}, {2, "", 4, 0, 0, 3600, 7200, -1}};
    CloudWorkBound none = cloud_work_bound(config, local_only);
    DOUBLES_EQUAL(0, none.cloud_core_seconds, 1e-9);
    DOUBLES_EQUAL(28800, none.total_work, 1e-9);

    // Job 2 started after 120 s, in the cloud.  Any schedule starting it by
    // 120 s must run all of it in the cloud (local cores are busy until
    // 3600 s with job 1): 14400 core·s.  The fluid bound: 28800 work, at
    // most 4 × 3720 locally → 13920.
    SimResult burst;
    burst.jobs = {{1, "", 4, 0, 0, 0, 3600, -1}, {2, "", 4, 0, 0, 120, 3720, 0}};
    CloudWorkBound b = cloud_work_bound(config, burst);
    DOUBLES_EQUAL(13920, b.cloud_core_seconds, 1e-6);
    CHECK(b.cloud_core_seconds <= 14400);
    DOUBLES_EQUAL(13920 * 0.1 / 3600, b.cloud_cost, 1e-9);
}

#include "sim/reward_profit.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(RewardProfit){};

TEST(RewardProfit, PaysPerJobUnderBothSchemesAndChargesBothTiers)
{
    SimResult r;
    // (id, account, cpus, submit, eligible, start, end, group)
    r.jobs = {{1, "a", 2, 0, 0, 0, 3600, -1},      // local, t = 1 h
              {2, "a", 4, 0, 600, 1200, 1800, 0}, // cloud, t = 1200 s from eligible
              {3, "b", 1, 0, 0, 5, 5, -1}};       // zero length: t floored at τ
    r.cloud_cost = 7;
    RewardScheme s;
    s.lambda = 2;
    s.reward_max = 10;
    s.local_price = 0.5;
    const double local_cost = 0.5 * 2 * 3600 / 3600.0; // job 3 ran no core-seconds
    const RewardProfit p = reward_profit(r, s);
    DOUBLES_EQUAL(2 * (10 - 2.0) + 4 * (10 - 1200 * 2 / 3600.0) + 1 * (10 - 5 * 2 / 3600.0) - 7 - local_cost, p.time,
                  1e-9);
    // R_scale = λ·3600 by default.
    DOUBLES_EQUAL(2 * 7200 / 3600.0 + 4 * 7200 / 1200.0 + 1 * 7200 / 10.0 - 7 - local_cost, p.throughput, 1e-9);

    s.reward_scale = 100;
    s.tau = 50;
    DOUBLES_EQUAL(2 * 100 / 3600.0 + 4 * 100 / 1200.0 + 1 * 100 / 50.0 - 7 - local_cost, reward_profit(r, s).throughput,
                  1e-9);
}

#include "policy/runtime/local_start_forecast.hpp"

#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(LocalStartForecast){};

TEST(LocalStartForecast, StartsInOrderAtExpectedReleases)
{
    // 4 cores busy until 100 s (limit says 1000 s).  A (4 cores, 50 s) starts
    // at 100, B (2 cores) when A's cores come back.
    const std::vector<ForecastRunning> running = {{100, 1000, 4}};
    const std::vector<ForecastPending> pending = {{4, 50, 500}, {2, 10, 10}};
    const auto start = forecast_local_starts(0, running, pending, 100);
    DOUBLES_EQUAL(100, start[0], 0);
    DOUBLES_EQUAL(150, start[1], 0);
}

TEST(LocalStartForecast, BackfillsOnlyWhatTheReservationAllows)
{
    // 2 of 4 cores free; the running job is expected back at 100 s but the
    // scheduler reckons with its limit (1000 s).  Head A (4 cores) waits for
    // it.  B (2 cores, limit 50 s) ends before the reservation: backfilled
    // now.  C (2 cores, limit 5000 s) would delay A: it waits although 2
    // cores are free from 50 s on, and starts when A's cores come back.
    const std::vector<ForecastRunning> running = {{100, 1000, 2}};
    const std::vector<ForecastPending> pending = {{4, 60, 600}, {2, 50, 50}, {2, 300, 5000}};
    const auto start = forecast_local_starts(2, running, pending, 100);
    DOUBLES_EQUAL(100, start[0], 0);
    DOUBLES_EQUAL(0, start[1], 0);
    DOUBLES_EQUAL(160, start[2], 0);
    // The backfill window bounds how far behind the head it looks.
    const std::vector<ForecastPending> deep = {{4, 60, 600}, {2, 300, 5000}, {2, 50, 50}};
    const auto narrow = forecast_local_starts(2, running, deep, 1);
    DOUBLES_EQUAL(160, narrow[2], 0); // not looked at before A started and C took the head
}

TEST(LocalStartForecast, StopsAtTheHorizonAndNeverStartsWhatCannotFit)
{
    const std::vector<ForecastRunning> running = {{100, 100, 4}};
    const std::vector<ForecastPending> pending = {{4, 1000, 1000}, {4, 10, 10}};
    const auto cut = forecast_local_starts(0, running, pending, 100, 500);
    DOUBLES_EQUAL(100, cut[0], 0);
    CHECK(cut[1] == kNotForeseen); // would start at 1100, past the horizon
    const auto wide = forecast_local_starts(0, running, {{8, 10, 10}}, 100);
    CHECK(wide[0] == kNotForeseen);
}

TEST(LocalStartForecast, EveryJobEndingAtTheReservationLeavesItsCoresSpare)
{
    // 1 of 5 cores free; two 2-core jobs end at 100 s (limits too).  Head A
    // (3 cores) waits for them; then 5 − 3 cores are spare, so B (1 core,
    // 1000 s) backfills now, as Slurm's EASY pass would.
    const std::vector<ForecastRunning> running = {{100, 100, 2}, {100, 100, 2}};
    const std::vector<ForecastPending> pending = {{3, 50, 50}, {1, 1000, 1000}};
    const auto start = forecast_local_starts(1, running, pending, 100);
    DOUBLES_EQUAL(100, start[0], 0);
    DOUBLES_EQUAL(0, start[1], 0);
}

TEST(LocalStartForecast, AReservationCountsTheEndsOfJobsThePlayStartedWithTheRunningOnes)
{
    // 2 of 4 cores free; R runs 500 s of a 1000 s limit.  A (2 cores, 100 s)
    // starts now.  Head B (4 cores) waits for A's end and R's; C (2 cores,
    // 50 s) backfills when A's cores come back, ending before B's
    // reservation at 1000 s, and B starts when R's cores are back at 500 s.
    const std::vector<ForecastRunning> running = {{500, 1000, 2}};
    const std::vector<ForecastPending> pending = {{2, 100, 100}, {4, 10, 10}, {2, 50, 50}};
    const auto start = forecast_local_starts(2, running, pending, 100);
    DOUBLES_EQUAL(0, start[0], 0);
    DOUBLES_EQUAL(500, start[1], 0);
    DOUBLES_EQUAL(100, start[2], 0);
}

TEST(LocalStartForecast, OnePreparationServesEveryPlayOfADecision)
{
    // Running jobs with equal planned ends, and some never expected back.
    const std::vector<ForecastRunning> running = {
        {300, 300, 2}, {100, 400, 1}, {kNotForeseen, kNotForeseen, 1}, {200, 300, 3}, {50, 50, 1}};
    const std::vector<std::vector<ForecastPending>> queues = {
        {{4, 100, 200}, {1, 20, 20}, {3, 500, 600}, {1, 1000, 1000}},
        {{8, 10, 10}, {1, 30, 30}},
        {},
        {{2, 60, 60}, {2, 60, 60}, {6, 10, 10}, {1, 5, 5}},
    };
    const LocalStartForecast prepared(1, running);
    for (int round = 0; round < 2; ++round)
        for (const auto& queue : queues) {
            const auto once = prepared.starts(queue, 2, 700);
            const auto fresh = forecast_local_starts(1, running, queue, 2, 700);
            CHECK_EQUAL(fresh.size(), once.size());
            for (std::size_t i = 0; i < once.size(); ++i)
                DOUBLES_EQUAL(fresh[i], once[i], 0);
        }
}

#include "policy/threads/scaling_model.hpp"

#include <cmath>
#include <cstdint>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

// T(t, d) = (a·d + b)·(c/t + 1 − c)
Seconds run_time(double a, double b, double c, std::uint32_t t, double d = 0)
{
    return (a * d + b) * (c / t + 1 - c);
}

// A reproducible noise factor in [1 − spread, 1 + spread].
struct Noise {
    std::uint64_t state = 12345;
    double operator()(double spread)
    {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        const double u = double(state >> 11) / double(1ULL << 53);
        return 1 + spread * (2 * u - 1);
    }
};

const std::uint32_t kCounts[] = {1, 2, 4, 8};

} // namespace

TEST_GROUP(ScalingModel)
{
    ScalingModel model;
    ScalingSettings settings;
    void add(std::uint32_t t, Seconds elapsed, double size = 0)
    {
        model.add(ScalingRun{t, elapsed, size}, settings.decay);
    }
};

TEST(ScalingModel, RecoversTheScalableShareAndTheSingleThreadedTimeFromExactRuns)
{
    for (int k = 0; k < 2; ++k)
        for (auto t : kCounts)
            add(t, run_time(0, 1000, 0.7, t));
    const ScalingFit f = model.fit(settings);
    CHECK(f.known);
    DOUBLES_EQUAL(0.7, f.c, 1e-9);
    DOUBLES_EQUAL(1000, f.b, 1e-6);
    DOUBLES_EQUAL(0, f.a, 1e-9);
    CHECK(f.c_error < 1e-6);
    LONGS_EQUAL(4, f.thread_counts);
    DOUBLES_EQUAL(1000 * (0.7 / 4 + 0.3), f.time(4), 1e-6);
}

TEST(ScalingModel, OneThreadCountTellsNothingAboutScaling)
{
    for (int k = 0; k < 20; ++k)
        add(4, 500);
    const ScalingFit f = model.fit(settings);
    CHECK(!f.known);
    LONGS_EQUAL(1, f.thread_counts);
}

TEST(ScalingModel, TooFewRunsAreNotKnownYet)
{
    for (auto t : kCounts)
        add(t, run_time(0, 1000, 0.5, t));
    const ScalingFit f = model.fit(settings);
    CHECK(!f.known); // 4 runs, 3.9-odd effective, fewer than 5
    DOUBLES_EQUAL(0.5, f.c, 1e-9);
}

TEST(ScalingModel, NoisyRunsConvergeWithinTwentyRuns)
{
    Noise noise;
    for (int k = 0; k < 20; ++k) {
        const std::uint32_t t = kCounts[k % 4];
        add(t, run_time(0, 3600, 0.6, t) * noise(0.05));
    }
    const ScalingFit f = model.fit(settings);
    CHECK(f.known);
    CHECK_TEXT(std::fabs(f.c - 0.6) <= 0.05, ("c = " + std::to_string(f.c)).c_str());
    CHECK(f.c_error <= settings.max_c_error);
}

TEST(ScalingModel, NoisierRunsStayUnknownUntilCIsPrecise)
{
    Noise noise;
    settings.max_c_error = 0.02;
    for (int k = 0; k < 8; ++k) {
        const std::uint32_t t = kCounts[k % 4];
        add(t, run_time(0, 3600, 0.6, t) * noise(0.4));
    }
    const ScalingFit f = model.fit(settings);
    CHECK(!f.known);
    CHECK(f.c_error > 0.02);
}

TEST(ScalingModel, SizeHintsGiveTheSingleThreadedTimeAsALineInTheSize)
{
    for (double d : {100.0, 200.0, 400.0})
        for (std::uint32_t t : {1u, 4u})
            add(t, run_time(2, 100, 0.8, t, d), d);
    const ScalingFit f = model.fit(settings);
    CHECK(f.known);
    DOUBLES_EQUAL(2, f.a, 1e-6);
    DOUBLES_EQUAL(100, f.b, 1e-4);
    DOUBLES_EQUAL(0.8, f.c, 1e-9);
    DOUBLES_EQUAL(run_time(2, 100, 0.8, 8, 300), f.time(8, 300), 1e-6);
}

TEST(ScalingModel, OlderRunsWeighLessSoACategoryThatChangesIsRelearned)
{
    settings.decay = 0.9;
    for (int k = 0; k < 40; ++k)
        add(kCounts[k % 4], run_time(0, 1000, 0.9, kCounts[k % 4]));
    for (int k = 0; k < 60; ++k)
        add(kCounts[k % 4], run_time(0, 1000, 0.3, kCounts[k % 4]));
    const ScalingFit f = model.fit(settings);
    DOUBLES_EQUAL(0.3, f.c, 0.01);
    DOUBLES_EQUAL(19, f.runs, 0.1); // (Σw)² / Σw² with w = 0.9^k: 10² / 5.26
}

TEST(ScalingModel, RunsWithoutThreadsOrATimeAreNotLearnedFrom)
{
    add(0, 100);
    add(2, 0);
    add(2, -5);
    add(2, NAN);
    add(2, 100, -1);
    const ScalingFit f = model.fit(settings);
    DOUBLES_EQUAL(0, f.runs, 0);
    LONGS_EQUAL(0, f.thread_counts);
    CHECK(!f.known);
}

TEST(ScalingModel, FitsInAFewHundredBytes)
{
    CHECK(sizeof(ScalingModel) <= 256);
}

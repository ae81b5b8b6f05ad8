#include "policy/warm/forecasters/forecaster_registry.hpp"

#include "forecaster_test_series.hpp"

#include <cmath>
#include <random>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;
using namespace burst::test;

namespace {

// A random walk from 500 with uniform steps in [-3, 3]: the moves over
// any lead are alike at every tick, as the forecaster assumes.
std::vector<double> random_walk(std::size_t ticks, unsigned seed)
{
    std::mt19937 draw(seed);
    std::vector<double> s{500};
    while (s.size() < ticks)
        s.push_back(s.back() + 6 * (double(draw()) / double(draw.max())) - 3);
    return s;
}

} // namespace

TEST_GROUP(QuantileForecaster){};

TEST(QuantileForecaster, HoldsTheCountAtOrBelowTheForecastTheTargetedShareOfTicks)
{
    const std::vector<double> s = random_walk(20000, 7);
    for (double q : {0.5, 0.8, 0.95})
        for (std::uint32_t lead : {1u, 4u}) {
            auto f = make_forecaster("quantile,quantile=" + std::to_string(q) + ",window=2d", 300);
            const ForecastError e = score(*f, s, 2 * kTicksPerDay, lead);
            DOUBLES_EQUAL(q, 1 - e.under_share(), 0.02);
        }
}

TEST(QuantileForecaster, AHigherQuantileTradesUnderProvisioningForPmse)
{
    const std::vector<double> s = random_walk(20000, 11);
    auto median = make_forecaster("quantile,quantile=0.5", 300), high = make_forecaster("quantile,quantile=0.95", 300);
    const ForecastError m = score(*median, s, kTicksPerWeek, 2), h = score(*high, s, kTicksPerWeek, 2);
    CHECK(h.pmse() > 2 * m.pmse());
    CHECK(h.under_share() < m.under_share() / 5);
}

TEST(QuantileForecaster, ForecastsTheLastCountUntilItHasSeenAMoveThatFar)
{
    auto f = make_forecaster("quantile", 300);
    DOUBLES_EQUAL(0, f->forecast(1), 0);
    f->observe(4);
    f->observe(6);
    DOUBLES_EQUAL(6, f->forecast(2), 0);
    DOUBLES_EQUAL(8, f->forecast(1), 0); // the one move seen, +2
}

TEST(QuantileForecaster, TiedCountsAreNotUnderProvisioned)
{
    // Mostly still, as bucket counts are: the forecast equals the count on
    // most ticks, neither over nor under, and 1 - under is what meets the
    // quantile.
    std::vector<double> s;
    for (std::size_t t = 0; t < 4000; ++t)
        s.push_back(t % 10 == 0 ? 3 : 2);
    auto f = make_forecaster("quantile,quantile=0.5,window=1d", 300);
    const ForecastError e = score(*f, s, kTicksPerDay, 1);
    CHECK(1 - e.under_share() >= 0.5);
    CHECK(e.over_share() < 0.5);
}

TEST(QuantileForecaster, KeepsOnlyTheWindowsMoves)
{
    auto f = make_forecaster("quantile,quantile=0.99,window=30m", 300); // 6 ticks
    for (double count : {0.0, 100.0, 100.0, 100.0, 100.0, 100.0, 100.0, 100.0})
        f->observe(count);
    DOUBLES_EQUAL(100, f->forecast(1), 0); // the jump of 100 has left the window
}

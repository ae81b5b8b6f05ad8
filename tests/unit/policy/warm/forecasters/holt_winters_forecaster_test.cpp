#include "policy/warm/forecasters/forecaster_registry.hpp"

#include "forecaster_test_series.hpp"

#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;
using namespace burst::test;

namespace {

std::vector<double> series(double (*pattern)(std::uint64_t), std::uint32_t days)
{
    std::vector<double> s;
    for (std::uint64_t t = 0; t < std::uint64_t(days) * kTicksPerDay; ++t)
        s.push_back(pattern(t) + jitter(t));
    return s;
}

// Feeds the first `ticks` of `s`.
std::unique_ptr<Forecaster> fed(const std::string& spec, const std::vector<double>& s, std::size_t ticks)
{
    auto f = make_forecaster(spec, 300);
    for (std::size_t t = 0; t < ticks; ++t)
        f->observe(s[t]);
    return f;
}

} // namespace

TEST_GROUP(HoltWintersForecaster){};

TEST(HoltWintersForecaster, RecoversADailyPatternAndForecastsTheMorningBeforeItComes)
{
    const std::vector<double> s = series(office_hours, 15);
    // Fed up to 8:50 of day 15: 9:00 is two ticks ahead, 13:00 forty-nine.
    const auto f = fed("holt-winters", s, 14 * kTicksPerDay + 8 * 12 + 11);
    DOUBLES_EQUAL(2, f->forecast(1), 1);
    DOUBLES_EQUAL(20, f->forecast(2), 1);
    DOUBLES_EQUAL(20, f->forecast(50), 1);
    DOUBLES_EQUAL(2, f->forecast(50 + 8 * 12), 1);

    // Two ticks ahead over the second week, against the last count, which
    // misses every step for two ticks.
    auto hw = make_forecaster("holt-winters", 300), last = make_forecaster("last-value", 300);
    const ForecastError hw_error = score(*hw, s, kTicksPerWeek, 2), last_error = score(*last, s, kTicksPerWeek, 2);
    CHECK_TEXT(hw_error.mse() < 0.1 * last_error.mse(), "Holt-Winters should beat the last value tenfold here");
    CHECK_TEXT(hw_error.mse() < 0.5, "Holt-Winters should miss by little more than the jitter");
}

TEST(HoltWintersForecaster, TheWeeklySeasonKnowsTheWeekend)
{
    const std::vector<double> s = series(office_week, 28);
    // Fed to the last tick of the fourth Friday: Saturday noon is 145 ticks
    // ahead, Monday noon 145 + 2 days.
    const std::size_t friday_night = 3 * kTicksPerWeek + 5 * kTicksPerDay;
    const std::uint32_t saturday_noon = 12 * 12 + 1, monday_noon = saturday_noon + 2 * kTicksPerDay;
    const auto weekly = fed("holt-winters", s, friday_night);
    DOUBLES_EQUAL(5, weekly->forecast(saturday_noon), 1.5);
    DOUBLES_EQUAL(20, weekly->forecast(monday_noon), 1.5);
    // Without it, Saturday looks like a Friday.
    const auto daily = fed("holt-winters,seasons=daily", s, friday_night);
    CHECK(daily->forecast(saturday_noon) > 15);
}

TEST(HoltWintersForecaster, TheWeeklySeasonAloneLearnsTheDaysToo)
{
    // A week of ticks holds every time of every day: on its own it knows
    // both the weekend and the office hours.
    const std::vector<double> s = series(office_week, 28);
    const std::size_t friday_night = 3 * kTicksPerWeek + 5 * kTicksPerDay;
    const std::uint32_t saturday_noon = 12 * 12 + 1, monday_noon = saturday_noon + 2 * kTicksPerDay;
    const auto weekly = fed("holt-winters,seasons=weekly", s, friday_night);
    DOUBLES_EQUAL(5, weekly->forecast(saturday_noon), 1.5);
    DOUBLES_EQUAL(20, weekly->forecast(monday_noon), 1.5);
    DOUBLES_EQUAL(2, weekly->forecast(monday_noon - 6 * 12), 1.5); // Monday 6:00
}

TEST(HoltWintersForecaster, ForecastsTheLastCountUntilASeasonIsSeen)
{
    auto f = make_forecaster("holt-winters,seasons=daily", 3600);
    DOUBLES_EQUAL(0, f->forecast(1), 0);
    f->observe(7);
    DOUBLES_EQUAL(7, f->forecast(3), 0);
    f->observe(9);
    DOUBLES_EQUAL(9, f->forecast(3), 0);
}

TEST(HoltWintersForecaster, AFallingTrendIsNeverForecastBelowZero)
{
    // A flat first day starts it at 100; then the count falls by 10 an
    // hour, which alpha = beta = 1 take up at once: level 50, trend -10.
    auto f = make_forecaster("holt-winters,seasons=daily,alpha=1,beta=1", 3600);
    for (int hour = 0; hour < 24; ++hour)
        f->observe(100);
    for (double count : {90.0, 80.0, 70.0, 60.0, 50.0})
        f->observe(count);
    DOUBLES_EQUAL(40, f->forecast(1), 1e-9);
    DOUBLES_EQUAL(0, f->forecast(5), 1e-9);
    DOUBLES_EQUAL(0, f->forecast(6), 0);   // 50 - 60 without the floor
    DOUBLES_EQUAL(0, f->forecast(100), 0); // 50 - 1000
}

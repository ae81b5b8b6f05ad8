#pragma once
// Series the forecaster tests feed: 5-minute ticks, as Gao et al. aggregate.

#include "policy/warm/forecasters/forecast_error.hpp"
#include "policy/warm/forecasters/forecaster.hpp"

#include <cstdint>
#include <vector>

namespace burst::test {

constexpr std::uint32_t kTicksPerDay = 288;
constexpr std::uint32_t kTicksPerWeek = 7 * kTicksPerDay;

// 20 nodes from 9:00 to 17:00, 2 the rest of the day.
inline double office_hours(std::uint64_t tick)
{
    const std::uint64_t hour = tick % kTicksPerDay / 12;
    return hour >= 9 && hour < 17 ? 20 : 2;
}

// Office hours on weekdays; at weekends a quarter of the day's 20, and 2
// at night as on weekdays.
inline double office_week(std::uint64_t tick)
{
    const double weekday = office_hours(tick);
    return tick % kTicksPerWeek < 5 * kTicksPerDay || weekday == 2 ? weekday : weekday / 4;
}

// Small, deterministic jitter in [-0.5, 0.5).
inline double jitter(std::uint64_t tick) { return double((tick * 2654435761u) % 1000) / 1000 - 0.5; }

// Feeds `series` to `f`, scoring from tick `from` on its forecasts `steps` ahead.
inline ForecastError score(Forecaster& f, const std::vector<double>& series, std::size_t from, std::uint32_t steps)
{
    ForecastError error;
    for (std::size_t t = 0; t + steps < series.size(); ++t) {
        f.observe(series[t]);
        if (t >= from)
            error.add(series[t + steps], f.forecast(steps));
    }
    return error;
}

} // namespace burst::test

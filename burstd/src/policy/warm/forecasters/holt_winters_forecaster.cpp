#include "policy/warm/forecasters/holt_winters_forecaster.hpp"

#include "common/plain_number.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace burst {
namespace {

constexpr Seconds kDay = 86400;
constexpr Seconds kWeek = 7 * kDay;

} // namespace

HoltWintersForecaster::HoltWintersForecaster(PolicyParams& params, Seconds tick)
    : alpha_(params.get_double("alpha", 0.5, 0, 1)),
      beta_(params.get_double("beta", 0.001, 0, 1)),
      gamma_(params.get_double("gamma", 0.3, 0, 1)),
      delta_(params.get_double("delta", 0.1, 0, 1))
{
    const std::string seasons = params.get_choice("seasons", "daily+weekly", {"daily", "weekly", "daily+weekly"});
    const double per_day = kDay / tick;
    if (!(tick > 0) || per_day < 1 || per_day != std::floor(per_day))
        throw PolicyConfigError("a tick of " + plain_number(tick) +
                                " s does not divide a day into whole ticks (try 60, 300, 600, 900 or 3600)");
    if (seasons != "weekly")
        day_ = std::size_t(per_day);
    if (seasons != "daily")
        week_ = std::size_t(kWeek / tick);
    daily_.assign(day_, 0);
    weekly_.assign(week_, 0);
}

void HoltWintersForecaster::start()
{
    const std::size_t n = first_season_.size();
    level_ = std::accumulate(first_season_.begin(), first_season_.end(), 0.0) / double(n);
    // Each time of day's mean deviation over the days seen, then what each
    // tick of the week adds to that.
    for (std::size_t i = 0; i < day_; ++i) {
        double sum = 0;
        for (std::size_t at = i; at < n; at += day_)
            sum += first_season_[at];
        daily_[i] = sum / double(n / day_) - level_;
    }
    for (std::size_t i = 0; i < week_; ++i)
        weekly_[i] = first_season_[i] - level_ - (day_ ? daily_[i % day_] : 0);
    first_season_.clear();
    first_season_.shrink_to_fit();
    started_ = true;
}

void HoltWintersForecaster::observe(double count)
{
    const std::uint64_t t = ticks_++;
    last_ = count;
    if (!started_) {
        first_season_.push_back(count);
        if (first_season_.size() == (week_ ? week_ : day_))
            start();
        return;
    }
    const double daily = day_ ? daily_[t % day_] : 0, weekly = week_ ? weekly_[t % week_] : 0;
    const double previous = level_;
    level_ = alpha_ * (count - daily - weekly) + (1 - alpha_) * (level_ + trend_);
    trend_ = beta_ * (level_ - previous) + (1 - beta_) * trend_;
    if (day_)
        daily_[t % day_] = gamma_ * (count - level_ - weekly) + (1 - gamma_) * daily;
    if (week_)
        weekly_[t % week_] = delta_ * (count - level_ - daily) + (1 - delta_) * weekly;
}

double HoltWintersForecaster::forecast(std::uint32_t steps) const
{
    if (!started_)
        return std::max(0.0, last_);
    const std::uint64_t at = ticks_ - 1 + steps;
    const double daily = day_ ? daily_[at % day_] : 0, weekly = week_ ? weekly_[at % week_] : 0;
    return std::max(0.0, level_ + double(steps) * trend_ + daily + weekly);
}

} // namespace burst

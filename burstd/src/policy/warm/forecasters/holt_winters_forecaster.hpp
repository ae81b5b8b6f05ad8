#pragma once
// Additive Holt-Winters with a daily and a weekly season (Taylor's
// double-seasonal form): the count is a level, plus a trend per tick, plus
// what the time of day adds, plus what the day of the week adds on top of
// that.  Each tick moves each part towards what the count seen says of it,
// by its own share: alpha (level), beta (trend), gamma (daily season),
// delta (weekly season).
//
// The longest season's first counts (a week's, or a day's without the
// weekly season) start it: the level is their mean, the daily season each
// time of day's mean deviation from it, the weekly season what is left of
// each tick's; until then it forecasts the last count.  Started from
// zero, the weekly season learns too slowly beside the daily one, which
// takes up a weekend's dip for the days after it too.  The seasons are
// indexed by tick since the first count, so a forecast any number of ticks
// ahead reads the latest estimate of that time of day (and week).

#include "model/clock.hpp"
#include "policy/policy_params.hpp"
#include "policy/warm/forecasters/forecaster.hpp"

#include <cstdint>
#include <vector>

namespace burst {

class HoltWintersForecaster final : public Forecaster {
public:
    static constexpr std::string_view kName = "holt-winters";
    // Reads alpha, beta, gamma, delta and seasons (daily, weekly or
    // daily+weekly); throws PolicyConfigError when `tick` does not divide
    // a day (a season must be whole ticks).
    HoltWintersForecaster(PolicyParams& params, Seconds tick);

    std::string_view name() const override { return kName; }
    void observe(double count) override;
    double forecast(std::uint32_t steps) const override;

private:
    void start();

    double alpha_, beta_, gamma_, delta_;
    std::size_t day_ = 0;  // ticks per daily season; 0 = none
    std::size_t week_ = 0; // ticks per weekly season; 0 = none
    std::vector<double> daily_, weekly_;
    std::vector<double> first_season_; // counts until the model starts
    double level_ = 0, trend_ = 0, last_ = 0;
    bool started_ = false;
    std::uint64_t ticks_ = 0; // counts observed
};

} // namespace burst

#pragma once
// Holds enough that the count comes out at or below the forecast a chosen
// share of the time: the last count plus the `quantile` quantile of how
// far the count moved over as many ticks ahead within the last `window`.
// The quantile is the trade-off between the two ways to be wrong: under
// (work waiting for a boot) about 1 - `quantile` of the ticks, at or over
// the rest (over: nodes up and idle, what PMSE measures; counts that stay
// put are neither).  Where a tick under by a node costs u and a tick over
// by a node costs o, the cheapest quantile is u / (u + o) (the
// newsvendor's critical ratio).
//
// Until the window holds a pair of counts that far apart, the last count.

#include "model/clock.hpp"
#include "policy/policy_params.hpp"
#include "policy/warm/forecasters/forecaster.hpp"

#include <cstddef>
#include <deque>

namespace burst {

class QuantileForecaster final : public Forecaster {
public:
    static constexpr std::string_view kName = "quantile";
    // Reads quantile, in (0, 1), and window, a duration of at least two
    // ticks.
    QuantileForecaster(PolicyParams& params, Seconds tick);

    std::string_view name() const override { return kName; }
    void observe(double count) override;
    double forecast(std::uint32_t steps) const override;

private:
    double quantile_;
    std::size_t window_; // ticks of history kept
    std::deque<double> history_;
};

} // namespace burst

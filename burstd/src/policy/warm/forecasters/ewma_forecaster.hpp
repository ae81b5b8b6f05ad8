#pragma once
// Exponentially weighted moving average: each tick moves the forecast a
// share alpha of the way to the count seen, so a burst of one tick lifts it
// by alpha of its height rather than all of it.  The same forecast for
// every lead: no trend, no season.

#include "policy/policy_params.hpp"
#include "policy/warm/forecasters/forecaster.hpp"

namespace burst {

class EwmaForecaster final : public Forecaster {
public:
    static constexpr std::string_view kName = "ewma";
    // Reads alpha, in (0, 1].
    explicit EwmaForecaster(PolicyParams& params);

    std::string_view name() const override { return kName; }
    void observe(double count) override;
    double forecast(std::uint32_t) const override { return average_; }

private:
    double alpha_;
    double average_ = 0;
    bool started_ = false;
};

} // namespace burst

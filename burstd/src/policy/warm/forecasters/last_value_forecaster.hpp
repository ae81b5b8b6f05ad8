#pragma once
// The count stays what it was last: the baseline every other forecaster has
// to beat, and what a reactive autoscaler assumes.

#include "policy/policy_params.hpp"
#include "policy/warm/forecasters/forecaster.hpp"

namespace burst {

class LastValueForecaster final : public Forecaster {
public:
    static constexpr std::string_view kName = "last-value";
    explicit LastValueForecaster(PolicyParams&) {}

    std::string_view name() const override { return kName; }
    void observe(double count) override { last_ = count; }
    double forecast(std::uint32_t) const override { return last_; }

private:
    double last_ = 0;
};

} // namespace burst

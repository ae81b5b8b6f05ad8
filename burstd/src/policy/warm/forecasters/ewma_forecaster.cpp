#include "policy/warm/forecasters/ewma_forecaster.hpp"

namespace burst {

EwmaForecaster::EwmaForecaster(PolicyParams& params) : alpha_(params.get_double("alpha", 0.3, 0, 1))
{
    if (alpha_ <= 0)
        throw PolicyConfigError("policy parameter alpha='" + params.values().at("alpha") +
                                "': expected a number in (0, 1] (at 0 the forecast never moves)");
}

void EwmaForecaster::observe(double count)
{
    // The first count is the average so far, not a share of one above zero.
    average_ = started_ ? alpha_ * count + (1 - alpha_) * average_ : count;
    started_ = true;
}

} // namespace burst

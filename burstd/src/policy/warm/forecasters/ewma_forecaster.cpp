#include "policy/warm/forecasters/ewma_forecaster.hpp"

namespace burst {

// At alpha 0 the forecast would never move from the first count.
EwmaForecaster::EwmaForecaster(PolicyParams& params)
    : alpha_(params.get_double("alpha", 0.3, NumberRange{0, 1, true, false}))
{
}

void EwmaForecaster::observe(double count)
{
    // The first count is the average so far, not a share of one above zero.
    average_ = started_ ? alpha_ * count + (1 - alpha_) * average_ : count;
    started_ = true;
}

} // namespace burst

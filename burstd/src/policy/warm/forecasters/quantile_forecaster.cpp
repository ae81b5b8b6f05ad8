#include "policy/warm/forecasters/quantile_forecaster.hpp"

#include "common/plain_number.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace burst {

QuantileForecaster::QuantileForecaster(PolicyParams& params, Seconds tick)
    : quantile_(params.get_double("quantile", 0.9, NumberRange{0, 1, true, true}))
{
    const Seconds window = params.get_duration("window", 7 * 86400, 0, 366 * 86400);
    if (!(tick > 0) || window < 2 * tick) {
        const auto given = params.values().find("window");
        throw PolicyConfigError("policy parameter window='" +
                                (given != params.values().end() ? given->second : plain_number(window)) +
                                "': expected at least two ticks (" + plain_number(2 * tick) + " s)");
    }
    window_ = std::size_t(window / tick);
}

void QuantileForecaster::observe(double count)
{
    history_.push_back(count);
    if (history_.size() > window_)
        history_.pop_front();
}

double QuantileForecaster::forecast(std::uint32_t steps) const
{
    if (history_.empty())
        return 0;
    const double last = history_.back();
    if (history_.size() <= steps)
        return last;
    std::vector<double> moves(history_.size() - steps);
    for (std::size_t i = 0; i < moves.size(); ++i)
        moves[i] = history_[i + steps] - history_[i];
    // The smallest move at least `quantile_` of them do not exceed.
    const std::size_t rank =
        std::min(moves.size() - 1, std::size_t(std::max(0.0, std::ceil(quantile_ * double(moves.size())) - 1)));
    std::nth_element(moves.begin(), moves.begin() + long(rank), moves.end());
    return std::max(0.0, last + moves[rank]);
}

} // namespace burst

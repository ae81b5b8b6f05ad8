#pragma once
// How far a forecaster's forecasts fell from the counts that came, as Gao
// et al. judge them (section 5.3): MSE, the mean squared error, and PMSE,
// the same sum over the forecasts above the count only (still divided by
// every forecast): the cost side, nodes held that no work used.  The
// shares of forecasts above and below the count say how often each side
// was wrong.

#include <cstddef>

namespace burst {

class ForecastError {
public:
    void add(double actual, double forecast);

    std::size_t count() const { return count_; }
    double mse() const { return count_ ? squares_ / double(count_) : 0; }
    double pmse() const { return count_ ? over_squares_ / double(count_) : 0; }
    double over_share() const { return count_ ? double(over_) / double(count_) : 0; }
    double under_share() const { return count_ ? double(under_) / double(count_) : 0; }

private:
    std::size_t count_ = 0, over_ = 0, under_ = 0;
    double squares_ = 0, over_squares_ = 0;
};

} // namespace burst

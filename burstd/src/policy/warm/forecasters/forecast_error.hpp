#pragma once
// How far a forecaster's forecasts fell from the counts that came, as Gao
// et al. judge them (section 5.3): MSE, the mean squared error, and PMSE,
// the mean squared error of the forecasts above the count (divided by how
// many were above, as their Table 4 must be: some of its PMSEs exceed the
// MSE beside them).  PMSE says how far over a forecast is when it is over;
// the over-provisioning a site pays for over a period is the same squares
// summed and divided by every tick (over_squares_per_tick), which weighs
// how often it is over too.  The shares of forecasts above and below the
// count say how often each side was wrong.

#include <cstddef>

namespace burst {

class ForecastError {
public:
    void add(double actual, double forecast);

    double mse() const { return count_ ? squares_ / double(count_) : 0; }
    double pmse() const { return over_ ? over_squares_ / double(over_) : 0; }
    double over_squares_per_tick() const { return count_ ? over_squares_ / double(count_) : 0; }
    double over_share() const { return count_ ? double(over_) / double(count_) : 0; }
    double under_share() const { return count_ ? double(under_) / double(count_) : 0; }

private:
    std::size_t count_ = 0, over_ = 0, under_ = 0;
    double squares_ = 0, over_squares_ = 0;
};

} // namespace burst

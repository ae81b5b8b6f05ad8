#include "policy/warm/forecasters/forecast_error.hpp"

namespace burst {

void ForecastError::add(double actual, double forecast)
{
    const double square = (forecast - actual) * (forecast - actual);
    ++count_;
    squares_ += square;
    if (forecast > actual) {
        ++over_;
        over_squares_ += square;
    } else if (forecast < actual) {
        ++under_;
    }
}

} // namespace burst

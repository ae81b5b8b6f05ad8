#pragma once
// When a simulated node group has no capacity to give (burstsim --group keys
// stockout= and stockout_rate=): inside a stock-out window every launch in
// the group fails for capacity; outside, each launch fails with probability
// `rate`.  Windows are in seconds from the trace's first submission.

#include "model/clock.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace burst {

class CapacityShortageError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

struct StockOutWindow {
    Seconds start = 0; // inclusive
    Seconds end = 0;   // exclusive
};

struct CapacityShortage {
    std::vector<StockOutWindow> windows;
    double rate = 0; // probability that a launch outside every window fails

    bool any() const { return rate > 0 || !windows.empty(); }
    // Whether `since_first_submit` falls in a window.
    bool stocked_out(Seconds since_first_submit) const;
};

// "START-END[;START-END...]": whole or fractional seconds, START < END.
// Throws CapacityShortageError saying what was expected.
std::vector<StockOutWindow> parse_stockout_windows(const std::string& value);

} // namespace burst

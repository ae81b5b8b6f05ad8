#include "sim/engine/capacity_shortage.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace burst {
namespace {

Seconds seconds(const std::string& window, const std::string& text)
{
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || errno != 0 || !std::isfinite(v) || v < 0)
        throw CapacityShortageError("stock-out window '" + window + "': '" + text +
                                    "' is not a number of seconds >= 0");
    return v;
}

} // namespace

bool CapacityShortage::stocked_out(Seconds since_first_submit) const
{
    for (const auto& w : windows)
        if (since_first_submit >= w.start && since_first_submit < w.end)
            return true;
    return false;
}

std::vector<StockOutWindow> parse_stockout_windows(const std::string& value)
{
    std::vector<StockOutWindow> windows;
    std::istringstream in(value);
    std::string window;
    while (std::getline(in, window, ';')) {
        const auto dash = window.find('-');
        if (dash == std::string::npos)
            throw CapacityShortageError("stock-out window '" + window +
                                        "': expected START-END in seconds, e.g. 600-1800");
        StockOutWindow w{seconds(window, window.substr(0, dash)), seconds(window, window.substr(dash + 1))};
        if (!(w.start < w.end))
            throw CapacityShortageError("stock-out window '" + window + "': START must be before END");
        windows.push_back(w);
    }
    if (windows.empty())
        throw CapacityShortageError("stock-out windows: expected START-END[;START-END...] in seconds");
    return windows;
}

} // namespace burst

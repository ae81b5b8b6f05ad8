#include "policy/site/routed_work.hpp"

#include <algorithm>

namespace burst {

void RoutedWork::add(Time now, double core_seconds)
{
    entries_.emplace_back(now, total_);
    total_ += core_seconds;
}

double RoutedWork::within(Time now, Seconds window) const
{
    const Time from = now - window;
    const auto it = std::lower_bound(entries_.begin(), entries_.end(), from,
                                     [](const std::pair<Time, double>& e, Time t) { return e.first < t; });
    return it == entries_.end() ? 0 : total_ - it->second;
}

void RoutedWork::keep(Seconds span)
{
    longest_ = std::max(longest_, span);
}

void RoutedWork::forget(Time now)
{
    while (!entries_.empty() && entries_.front().first < now - longest_)
        entries_.pop_front();
    longest_ = 0;
}

} // namespace burst

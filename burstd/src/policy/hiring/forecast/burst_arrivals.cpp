#include "policy/hiring/forecast/burst_arrivals.hpp"

#include <algorithm>

namespace burst {

void BurstArrivals::add(Time now, std::uint64_t cores)
{
    const std::size_t nodes = std::size_t((cores + node_cpus_ - 1) / node_cpus_);
    if (nodes == 0)
        return;
    // A new width needs no span yet: each decision's keep() comes before its forget().
    if (by_nodes_.size() < nodes)
        by_nodes_.resize(nodes);
    by_nodes_[nodes - 1].add(now, double(cores));
}

double BurstArrivals::within(Time now, Seconds window, std::uint64_t room, std::uint64_t held) const
{
    // Widths k (nodes) with room < k × cpus <= room + held.
    const std::size_t first = std::size_t(room / node_cpus_) + 1;
    const std::size_t last = std::min<std::size_t>(by_nodes_.size(), std::size_t((room + held) / node_cpus_));
    double sum = 0;
    for (std::size_t k = first; k <= last; ++k)
        sum += by_nodes_[k - 1].within(now, window);
    return sum;
}

void BurstArrivals::keep(Seconds span)
{
    for (RoutedWork& w : by_nodes_)
        w.keep(span);
}

void BurstArrivals::forget(Time now)
{
    for (RoutedWork& w : by_nodes_)
        w.forget(now);
}

} // namespace burst

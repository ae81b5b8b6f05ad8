#pragma once
// Jobs that would have paid for a burst, by when they arrived and how many
// whole nodes of a group they need: the recent arrivals a burst's node
// slots would be denied to.  One running total per width (routed_work.hpp),
// so a query is a binary search per width asked about.

#include "model/clock.hpp"
#include "policy/site/routed_work.hpp"

#include <cstdint>
#include <vector>

namespace burst {

class BurstArrivals {
public:
    explicit BurstArrivals(std::uint32_t node_cpus) : node_cpus_(node_cpus ? node_cpus : 1) {}
    // A job of `cores` that would pay for a burst arrived at `now` (not
    // before the last add).
    void add(Time now, std::uint64_t cores);
    // Cores of the jobs arrived within [now − window, now] whose whole
    // nodes need more than `room` cores but at most `room + held`.
    double within(Time now, Seconds window, std::uint64_t room, std::uint64_t held) const;
    // Windows up to `span` may be asked for: keep what they reach.
    void keep(Seconds span);
    // Drops arrivals no window kept reaches.
    void forget(Time now);

private:
    std::uint32_t node_cpus_;
    std::vector<RoutedWork> by_nodes_; // [k]: arrivals needing k + 1 nodes
};

} // namespace burst

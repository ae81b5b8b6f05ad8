#pragma once
// Each node group's bucket count over time, as the decision cycles saw it:
// one value per tick of fixed length (Gao et al. aggregate at 5 minutes,
// about one cloud boot), the forecasters' input.  A tick's value is the
// largest count a cycle in it saw: a warm pool sized to a tick's mean
// would leave its peak waiting.  A tick no cycle saw (burstd without
// snapshots) repeats the one before.
//
// Each tick also keeps the group's measured boot time at its last cycle
// (MeasuredBootTimes::expected): how far ahead a forecast made then has to
// look.

#include "model/clock.hpp"
#include "model/cluster_state.hpp"
#include "policy/runtime/measured_boot_times.hpp"
#include "policy/site/site_view.hpp"
#include "policy/warm/buckets/resource_vector.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace burst {

struct GroupBucketSeries {
    std::string group;
    std::int64_t first_tick = 0; // floor(time / tick) of counts[0]
    std::vector<double> counts;  // nodes, per tick from first_tick on
    std::vector<Seconds> lead;   // the measured boot time, per tick
};

class BucketSeries {
public:
    // Throws std::invalid_argument for a tick that is not positive.
    BucketSeries(ResourceOrder order, Seconds tick);

    // One decision cycle's state at `now`, with its view (the cycle's, so
    // that a queue of 100k jobs is not read into a second one); cycles come
    // in time order.
    void observe(const ClusterState& state, const SiteView& view, Time now);

    Seconds tick() const { return tick_; }
    // In the order groups first appeared; the last tick may still be open.
    const std::vector<GroupBucketSeries>& groups() const { return groups_; }

private:
    GroupBucketSeries& series_of(const std::string& group, std::int64_t tick);

    ResourceOrder order_;
    Seconds tick_;
    MeasuredBootTimes boots_;
    std::vector<GroupBucketSeries> groups_;
};

} // namespace burst

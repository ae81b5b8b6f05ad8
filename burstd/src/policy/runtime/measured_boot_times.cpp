#include "policy/runtime/measured_boot_times.hpp"

#include <algorithm>
#include <vector>

namespace burst {

void MeasuredBootTimes::observe(const ClusterState& state)
{
    // Boots change far less often than decisions come.
    if (state.boots == observed_)
        return;
    observed_ = state.boots;
    by_group_.clear();
    const std::vector<NodeBoot> boots = latest_boots(state.boots, kRecent);
    std::vector<Seconds> times;
    for (std::size_t end = 0; end < boots.size();) {
        const std::size_t begin = end;
        times.clear();
        for (; end < boots.size() && boots[end].node_group == boots[begin].node_group; ++end)
            times.push_back(boots[end].running_since - boots[end].requested_at);
        Measured& m = by_group_[boots[begin].node_group];
        const Seconds last = times.back();
        std::sort(times.begin(), times.end());
        const std::size_t n = times.size();
        m.median = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
        m.latest = std::min(last, 2 * m.median);
    }
}

Seconds MeasuredBootTimes::latest(const NodeGroup& group) const
{
    auto it = by_group_.find(group.name);
    return it != by_group_.end() ? it->second.latest : group.boot_time;
}

Seconds MeasuredBootTimes::expected(const NodeGroup& group) const
{
    auto it = by_group_.find(group.name);
    return it != by_group_.end() ? it->second.median : group.boot_time;
}

} // namespace burst

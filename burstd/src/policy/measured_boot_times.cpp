#include "policy/measured_boot_times.hpp"

#include <algorithm>
#include <vector>

namespace burst {

void MeasuredBootTimes::observe(const ClusterState& state)
{
    std::vector<const NodeBoot*> boots;
    for (const auto& b : state.boots)
        if (b.plausible())
            boots.push_back(&b);
    // By group, then in the order the nodes came up; the last kRecent of
    // each group count.
    std::stable_sort(boots.begin(), boots.end(), [](const NodeBoot* a, const NodeBoot* b) {
        return a->node_group != b->node_group ? a->node_group < b->node_group : a->running_since < b->running_since;
    });
    by_group_.clear();
    std::vector<Seconds> times;
    for (std::size_t end = 0; end < boots.size();) {
        const std::size_t begin = end;
        while (end < boots.size() && boots[end]->node_group == boots[begin]->node_group)
            ++end;
        times.clear();
        for (std::size_t i = end - std::min(end - begin, kRecent); i < end; ++i)
            times.push_back(boots[i]->running_since - boots[i]->requested_at);
        Measured& m = by_group_[boots[begin]->node_group];
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

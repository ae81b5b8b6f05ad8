#include "policy/measured_boot_times.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace burst {

void MeasuredBootTimes::observe(const ClusterState& state)
{
    // (ready at, instance) of the nodes up since their group's last call
    std::vector<std::pair<Time, const Instance*>> fresh;
    for (const auto& inst : state.instances) {
        if (inst.running_since <= 0 || inst.running_since < inst.requested_at)
            continue;
        auto it = by_group_.find(inst.node_group);
        if (it == by_group_.end() || inst.running_since > it->second.ready_at)
            fresh.emplace_back(inst.running_since, &inst);
    }
    // Boots in the order they ended, so that `recent` keeps the last ones
    // and `ready_at` only moves forward.
    std::stable_sort(fresh.begin(), fresh.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [ready_at, inst] : fresh) {
        Measured& m = by_group_[inst->node_group];
        m.ready_at = std::max(m.ready_at, ready_at);
        m.recent.push_back(ready_at - inst->requested_at);
        if (m.recent.size() > kRecent)
            m.recent.pop_front();
        // Kept, not worked out per call: the gate prices every waiting job
        // with it, and nodes come up far less often than decisions run.
        std::vector<Seconds> sorted(m.recent.begin(), m.recent.end());
        std::sort(sorted.begin(), sorted.end());
        const std::size_t n = sorted.size();
        m.median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}

Seconds MeasuredBootTimes::latest(const NodeGroup& group) const
{
    auto it = by_group_.find(group.name);
    return it != by_group_.end() ? it->second.recent.back() : group.boot_time;
}

Seconds MeasuredBootTimes::expected(const NodeGroup& group) const
{
    auto it = by_group_.find(group.name);
    return it != by_group_.end() ? it->second.median : group.boot_time;
}

} // namespace burst

#include "policy/idle_retention.hpp"

#include <algorithm>
#include <limits>

namespace burst {

void IdleRetention::observe(const ClusterState& state, Time now)
{
    const auto& all = state.snapshot.nodes;
    nodes_.resize(all.size());
    // Needs are matched before this call's idle events are added: a node
    // seen idle and another seen entering use in the same cycle tell
    // nothing about which came first.
    std::vector<NodeSeen*> went_idle;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const Node& node = all[i];
        if (!node.cloud())
            continue;
        NodeSeen& seen = nodes_[i];
        if (seen.name != node.name || (!seen.group.empty() && (seen.group_index >= state.groups.size() ||
                                                                 state.groups[seen.group_index].name != seen.group))) {
            seen = NodeSeen{};
            seen.name = node.name;
            const NodeGroup* g = state.group_of_node(node.name);
            if (g) {
                seen.group = g->name;
                seen.group_index = std::size_t(g - state.groups.data());
            }
        }
        if (seen.group.empty())
            continue;
        const NodeGroup& group = state.groups[seen.group_index];
        Use use = Use::Down;
        if (node.has(kNodePoweringUp) && !node.has(kNodeDrain))
            use = Use::Busy;
        else if (node.usable())
            use = node.alloc_cpus > 0 ? Use::Busy : Use::Idle;
        if (use == Use::Busy && seen.use != Use::Busy) {
            Learned& l = groups_[group.name];
            l.need_cores += std::min(node.alloc_cpus, group.cpus);
            ++l.needs;
            const Seconds h = horizon(group);
            auto fresh = std::find_if(l.idle_events.begin(), l.idle_events.end(),
                                      [&](Time t) { return now - t <= h; });
            for (auto it = l.idle_events.begin(); it != fresh; ++it)
                add_gap(l, std::numeric_limits<Seconds>::infinity());
            l.idle_events.erase(l.idle_events.begin(), fresh);
            if (!l.idle_events.empty()) {
                add_gap(l, now - l.idle_events.back());
                l.idle_events.pop_back();
            }
        } else if (use == Use::Idle && seen.use != Use::Idle) {
            went_idle.push_back(&seen);
        }
        seen.use = use;
    }
    for (NodeSeen* seen : went_idle) {
        seen->idle_since = now;
        groups_[seen->group].idle_events.push_back(now);
    }
}

double IdleRetention::saving(const NodeGroup& group, const Learned& l) const
{
    const double cores = l.needs > 0 ? l.need_cores / double(l.needs) : double(group.cpus);
    return group.price_per_hour / 3600 * group.boot_time + lambda_ * cores * group.boot_time / 3600;
}

Seconds IdleRetention::horizon(const NodeGroup& group) const
{
    if (group.price_per_hour <= 0)
        return std::numeric_limits<Seconds>::infinity();
    auto it = groups_.find(group.name);
    static const Learned none;
    return saving(group, it != groups_.end() ? it->second : none) / (group.price_per_hour / 3600);
}

void IdleRetention::add_gap(Learned& l, Seconds gap)
{
    if (l.gaps.size() < window_) {
        l.gaps.push_back(gap);
    } else {
        l.gaps[l.next] = gap;
        l.next = (l.next + 1) % window_;
    }
    l.stale = true;
}

bool IdleRetention::keep(const NodeGroup& group, Learned& l, Seconds age)
{
    if (l.stale) {
        l.sorted = l.gaps;
        std::sort(l.sorted.begin(), l.sorted.end());
        l.stale = false;
    }
    const auto& g = l.sorted;
    const std::size_t first = std::size_t(std::upper_bound(g.begin(), g.end(), age) - g.begin());
    if (first == g.size())
        return true; // no gap this long seen yet: SuspendTime decides
    const double rate = group.price_per_hour / 3600;
    const double v = saving(group, l);
    const Seconds h = v / rate;
    const std::size_t within = std::size_t(std::upper_bound(g.begin(), g.end(), h) - g.begin()) - first;
    // Keeping until T = g[k]: every gap up to k ends a kept idle period with
    // a reuse, every longer one idles T − age and then pays V if ≤ H.
    double idle_before = 0; // Σ (g[i] − age) for first ≤ i ≤ k
    for (std::size_t k = first; k < first + within; ++k) {
        idle_before += g[k] - age;
        if (k + 1 < first + within && g[k + 1] == g[k])
            continue;
        const std::size_t reused = k + 1 - first;
        const double keep_cost =
            rate * (idle_before + double(g.size() - k - 1) * (g[k] - age)) + v * double(within - reused);
        if (keep_cost < v * double(within))
            return true;
    }
    return false;
}

std::vector<std::string> IdleRetention::release(const NodeGroup& group, Time now, std::uint32_t spare)
{
    std::vector<std::string> out;
    if (spare == 0 || group.price_per_hour <= 0)
        return out;
    auto l = groups_.find(group.name);
    if (l == groups_.end())
        return out;
    std::vector<std::pair<Time, const std::string*>> idle;
    for (const auto& seen : nodes_)
        if (seen.use == Use::Idle && seen.group == group.name)
            idle.emplace_back(seen.idle_since, &seen.name);
    std::stable_sort(idle.begin(), idle.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [since, name] : idle) {
        if (out.size() == spare)
            break;
        if (!keep(group, l->second, now - since))
            out.push_back(*name);
    }
    return out;
}

} // namespace burst

#include "policy/hiring/forecast/idle_retention.hpp"

#include "policy/cost/billing_boundary.hpp"

#include <algorithm>
#include <limits>

namespace burst {

void IdleRetention::forget(NodeSeen& seen)
{
    if (seen.use == Use::Idle)
        idle_since_.erase(seen.name);
    seen = NodeSeen{};
}

void IdleRetention::observe(const ClusterState& state, const SiteView& view, Time now)
{
    const bool seeding = !seeded_;
    seeded_ = true;
    step_ = seeding ? 0 : now - last_;
    last_ = now;
    const auto& all = state.snapshot.nodes;
    for (std::size_t i = all.size(); i < nodes_.size(); ++i)
        forget(nodes_[i]);
    nodes_.resize(all.size());
    // Needs are matched before this call's idle events are added: a node
    // seen idle and another seen entering use in the same cycle tell
    // nothing about which came first.  A node that moved in the snapshot
    // is forgotten at its old slot before it is recorded idle at its new one.
    std::vector<std::pair<NodeSeen*, const std::string*>> went_idle; // and its group
    for (std::size_t i = 0; i < all.size(); ++i) {
        const Node& node = all[i];
        NodeSeen& seen = nodes_[i];
        const int g = view.node_group[i];
        if (g < 0) {
            if (!seen.name.empty())
                forget(seen);
            continue;
        }
        if (seen.name != node.name || seen.group != g) {
            forget(seen);
            seen.name = node.name;
            seen.group = g;
        }
        const NodeGroup& group = state.groups[std::size_t(g)];
        Use use = Use::Down;
        if (node.has(kNodePoweringUp) && !node.has(kNodeDrain))
            use = Use::Busy;
        else if (node.usable())
            use = node.alloc_cpus > 0 ? Use::Busy : Use::Idle;
        if (use == seen.use)
            continue;
        if (seen.use == Use::Idle)
            idle_since_.erase(seen.name);
        seen.use = use;
        if (seeding)
            continue;
        if (use == Use::Busy) {
            Learned& l = groups_[group.name];
            if (node.alloc_cpus > 0) {
                l.need_cores += std::min(node.alloc_cpus, group.cpus);
                ++l.needs;
            }
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
        } else if (use == Use::Idle) {
            went_idle.emplace_back(&seen, &group.name);
        }
    }
    for (const auto& [seen, group] : went_idle) {
        idle_since_[seen->name] = now;
        groups_[*group].idle_events.push_back(now);
    }
}

double IdleRetention::saving(const NodeGroup& group, const Learned& l) const
{
    const double cores = l.needs > 0 ? l.need_cores / double(l.needs) : double(group.cpus);
    return group.price_per_hour / 3600 * std::max(group.min_billed, group.boot_time) + lambda_ * cores * group.boot_time / 3600;
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

bool IdleRetention::keep(const NodeGroup& group, Learned& l, Seconds age, Seconds uptime)
{
    if (to_billing_boundary(group, uptime) > step_)
        return true; // paid for until past the next decision
    // Seconds billed for keeping the node d longer.
    auto billed = [&](Seconds d) { return billed_seconds(group, uptime + d) - billed_seconds(group, uptime); };
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
    double idle_before = 0; // Σ billed(g[i] − age) for first ≤ i ≤ k
    for (std::size_t k = first; k < first + within; ++k) {
        idle_before += billed(g[k] - age);
        if (k + 1 < first + within && g[k + 1] == g[k])
            continue;
        const std::size_t reused = k + 1 - first;
        const double keep_cost =
            rate * (idle_before + double(g.size() - k - 1) * billed(g[k] - age)) + v * double(within - reused);
        if (keep_cost < v * double(within))
            return true;
    }
    return false;
}

std::vector<std::string> IdleRetention::release(const GroupView& view, NodeInstances& instances, Time now,
                                                std::uint32_t spare)
{
    std::vector<std::string> out;
    const NodeGroup& group = *view.group;
    if (spare == 0 || group.price_per_hour <= 0)
        return out;
    auto l = groups_.find(group.name);
    if (l == groups_.end())
        return out;
    std::vector<std::pair<Time, const std::string*>> idle;
    for (const auto& name : view.idle_nodes)
        if (auto since = idle_since_.find(name); since != idle_since_.end())
            idle.emplace_back(since->second, &name);
    std::stable_sort(idle.begin(), idle.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [since, name] : idle) {
        if (out.size() == spare)
            break;
        const Seconds age = now - since;
        // The launch time matters only where a node may not be past its
        // billing boundary: per-hour billing, or an idle time shorter than
        // MinBilled (a node idle that long is up at least that long).
        const Seconds uptime =
            group.billing == Billing::PerHour || age < group.min_billed ? instances.uptime(*name, now) : age;
        if (!keep(group, l->second, age, uptime))
            out.push_back(*name);
    }
    return out;
}

} // namespace burst

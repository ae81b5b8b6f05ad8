#include "policy/spend_tracker.hpp"

#include "policy/billing_boundary.hpp"
#include "policy/cloud_cost_bound.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>

namespace burst {

namespace {

const NodeGroup* find_group(const std::vector<NodeGroup>& groups, const std::string& name)
{
    for (const auto& g : groups)
        if (g.name == name)
            return &g;
    return nullptr;
}

} // namespace

SpendTracker::SpendTracker(Seconds interval) : interval_(interval) {}

SpendView SpendTracker::update(Time now, const std::vector<BilledSpan>& spans, const std::vector<Job>& jobs,
                               const std::vector<NodeGroup>& groups)
{
    Time start = interval_start(now, interval_);
    if (start != interval_start_) {
        interval_start_ = start;
        attributed_.clear();
        last_update_ = start;
    }
    Time from = std::max(last_update_, interval_start_);

    SpendView v;
    v.interval_start = interval_start_;
    v.interval = interval_;
    // The jobs running on each node that has cost to split since the last
    // update, in job order (a job naming a node twice counts once): one pass
    // over the jobs rather than one per span.
    std::unordered_map<std::string_view, std::vector<const Job*>> on_node;
    for (const auto& s : spans)
        if (std::min(s.until.value_or(now), now) > std::max(s.from, from))
            on_node.emplace(s.node, std::vector<const Job*>{});
    if (!on_node.empty())
        for (const auto& j : jobs) {
            if (!j.running() || j.nodes.empty() || j.account.empty())
                continue;
            for (const auto& n : j.nodes)
                if (auto it = on_node.find(n); it != on_node.end() && (it->second.empty() || it->second.back() != &j))
                    it->second.push_back(&j);
        }
    for (const auto& s : spans) {
        const NodeGroup* g = find_group(groups, s.node_group);
        if (!g)
            continue;
        double rate = g->price_per_hour / 3600.0;
        const Time until = std::min(s.until.value_or(now), now);
        // Powered down within a billed period, it is paid to the period's
        // end: by nobody's job, so "" carries it.
        const Time billed = std::min(s.until ? billed_until(*g, s.from, *s.until) : now, now);
        Time a = std::max(s.from, interval_start_);
        if (billed > a) {
            v.groups[g->name] += (billed - a) * rate;
            v.total += (billed - a) * rate;
        }
        // This update's share, split over the jobs on the node.
        Time sa = std::max(s.from, from);
        if (until <= sa)
            continue;
        for (const Job* j : on_node.at(s.node))
            attributed_[j->account] += (until - sa) * rate * node_share(*j, j->nodes.size(), *g);
    }
    last_update_ = now;
    double attributed = 0;
    for (const auto& [account, amount] : attributed_) {
        v.accounts[account] = amount;
        attributed += amount;
    }
    // Rounding (and a node shared past its cores) must not make it negative.
    v.accounts[""] = std::max(0.0, v.total - attributed);
    last_ = v;
    return v;
}

} // namespace burst

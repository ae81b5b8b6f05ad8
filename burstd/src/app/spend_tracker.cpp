#include "app/spend_tracker.hpp"

#include <algorithm>
#include <cmath>

namespace burst {

namespace {

const NodeGroup* find_group(const std::vector<NodeGroup>& groups, const std::string& name)
{
    for (const auto& g : groups)
        if (g.name == name)
            return &g;
    return nullptr;
}

// The span an instance costs money: from the provider's answer (or the
// request, if the answer was lost) to termination, or still running.
Time billed_from(const LedgerRecord& r) { return r.launched_at > 0 ? r.launched_at : r.requested_at; }

Time billed_until(const LedgerRecord& r, Time now)
{
    if (!r.open() && r.terminated_at > 0)
        return r.terminated_at;
    return now;
}

// Without a provider id no instance ever existed (or reconcile has not adopted it yet).
bool ever_billed(const LedgerRecord& r) { return !r.provider_id.empty(); }

} // namespace

SpendTracker::SpendTracker(Seconds interval) : interval_(interval > 0 ? interval : 86400) {}

void SpendTracker::set_interval(Seconds interval)
{
    interval = interval > 0 ? interval : 86400;
    if (interval == interval_)
        return;
    interval_ = interval;
    interval_start_ = 0;
}

SpendView SpendTracker::update(Time now, const std::vector<LedgerRecord>& records, const std::vector<Job>& jobs,
                               const std::vector<NodeGroup>& groups)
{
    Time start = std::floor(now / interval_) * interval_;
    if (start != interval_start_) {
        interval_start_ = start;
        attributed_.clear();
        last_update_ = start;
    }
    Time from = std::max(last_update_, interval_start_);

    SpendView v;
    v.interval_start = interval_start_;
    v.interval = interval_;
    for (const auto& r : records) {
        const NodeGroup* g = find_group(groups, r.node_group);
        if (!g || !ever_billed(r))
            continue;
        double rate = g->price_per_hour / 3600.0;
        Time a = std::max(billed_from(r), interval_start_), b = std::min(billed_until(r, now), now);
        if (b > a) {
            v.groups[g->name] += (b - a) * rate;
            v.total += (b - a) * rate;
        }
        // This update's share, split over the jobs on the node.
        Time sa = std::max(billed_from(r), from), sb = std::min(billed_until(r, now), now);
        if (sb <= sa)
            continue;
        for (const auto& j : jobs) {
            if (!j.running() || j.nodes.empty() || j.account.empty())
                continue;
            if (std::find(j.nodes.begin(), j.nodes.end(), r.node) == j.nodes.end())
                continue;
            double cores_here = double(j.cpus) / double(j.nodes.size());
            double share = g->cpus ? std::min(1.0, cores_here / double(g->cpus)) : 1.0;
            attributed_[j.account] += (sb - sa) * rate * share;
        }
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

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

void SpendTracker::job_ended(const JobEnd& end)
{
    if (!end.nodes.empty() && !end.account.empty())
        ended_[end.id] = end;
}

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
    // The jobs on each node that has cost to split since the last update,
    // in job order (a job naming a node twice counts once): one pass over
    // the jobs rather than one per span.  Each is charged for the part of
    // the update it ran.
    struct Run {
        const std::string* account;
        double cpus;
        std::size_t nodes;
        Time from, until;
    };
    std::unordered_map<std::string_view, std::vector<Run>> on_node;
    for (const auto& s : spans)
        if (std::min(s.until.value_or(now), now) > std::max(s.from, from))
            on_node.emplace(s.node, std::vector<Run>{});
    const auto add = [&on_node](const std::vector<std::string>& nodes, const Run& run) {
        for (const auto& n : nodes)
            if (auto it = on_node.find(n);
                it != on_node.end() && (it->second.empty() || it->second.back().account != run.account))
                it->second.push_back(run);
    };
    // Ended jobs a snapshot still lists running (COMPLETING) are charged to
    // their end; the others once more, from their start (if they started
    // since) to their end, and then forgotten.
    std::unordered_map<JobId, const JobEnd*> unlisted;
    for (const auto& [id, e] : ended_)
        unlisted.emplace(id, &e);
    for (const auto& j : jobs) {
        if (on_node.empty() && unlisted.empty())
            break;
        if (!j.running() || j.nodes.empty() || j.account.empty())
            continue;
        Time until = now;
        if (auto e = unlisted.find(j.id); e != unlisted.end()) {
            until = e->second->end_time;
            unlisted.erase(e);
        }
        // From the last update: a job CONFIGURING on nodes that boot runs
        // from Slurm's point of view, and pays for the boot (BudgetCap
        // commits it to the job), though its start time is the boot's end.
        add(j.nodes, Run{&j.account, double(j.cpus), j.nodes.size(), from, until});
    }
    for (const auto& [id, e] : unlisted)
        add(e->nodes, Run{&e->account, double(e->cpus), e->nodes.size(), e->start_time, e->end_time});
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
        for (const Run& r : on_node.at(s.node)) {
            const double ran = std::min(until, r.until) - std::max(sa, r.from);
            if (ran > 0)
                attributed_[*r.account] +=
                    ran * rate * std::min(1.0, r.cpus / double(r.nodes) / double(g->cpus ? g->cpus : 1));
        }
    }
    last_update_ = now;
    for (const auto& [id, e] : unlisted)
        ended_.erase(id);
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

#include "policy/budget/spend_tracker.hpp"

#include "policy/cost/billing_boundary.hpp"
#include "policy/cost/cloud_cost_bound.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

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

void SpendTracker::resume(const SpendBooking& booking)
{
    if (booking.interval != interval_ || last_update_ != 0)
        return;
    interval_start_ = booking.interval_start;
    last_update_ = booking.booked_until;
    attributed_ = booking.accounts;
    attributed_.erase("");
}

void SpendTracker::job_ended(const JobEnd& end)
{
    if (!end.nodes.empty() && !end.account.empty())
        ended_[end.id] = end;
}

SpendView SpendTracker::update(Time now, const std::vector<BilledSpan>& spans, const std::vector<Job>& jobs,
                               const std::vector<NodeGroup>& groups)
{
    // A clock behind the last update (set back, or behind the one that
    // booked before a restart) must not book the same time twice: spend
    // only moves forward.
    now = std::max(now, last_update_);
    Time start = interval_start(now, interval_);
    if (start > interval_start_) {
        interval_start_ = start;
        attributed_.clear();
        last_update_ = start;
    }
    Time from = std::max(last_update_, interval_start_);

    SpendView v;
    v.interval_start = interval_start_;
    v.interval = interval_;
    // The jobs on each node that has cost to split since the last update,
    // in job order (a job naming a node twice counts once), each for the
    // part of the update it ran there.
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
    const auto on_cloud = [&on_node](const std::vector<std::string>& nodes) {
        return std::any_of(nodes.begin(), nodes.end(), [&](const std::string& n) { return on_node.count(n) > 0; });
    };
    // A job pays from where its booking last stopped: a job CONFIGURING on
    // nodes that boot runs as far as Slurm is concerned, and pays for the
    // boot (BudgetCap commits it to the job), though Slurm sets its start
    // time to the boot's end once the nodes are up.
    for (auto& [id, seen] : seen_)
        seen.listed = false;
    for (auto& [id, done] : done_)
        done.listed = false;
    std::unordered_set<JobId> restarts; // ended, and listed running again
    if (!on_node.empty() || !seen_.empty() || !done_.empty())
        for (const auto& j : jobs) {
            if (!j.running() || j.nodes.empty() || j.account.empty())
                continue;
            if (auto d = done_.find(j.id); d != done_.end()) {
                if (j.start_time <= d->second.end) { // COMPLETING: booked to its end already
                    d->second.listed = true;
                    continue;
                }
                done_.erase(d); // requeued, and started again
            }
            const auto e = ended_.find(j.id);
            const bool restarted = e != ended_.end() && j.start_time > e->second.end_time;
            if ((e != ended_.end() && !restarted) || !(on_cloud(j.nodes) || seen_.count(j.id)))
                continue;
            // COMPLETING when first seen (after a restart): its end is not
            // known, so its run is booked by its job_end, if one comes.
            if (!restarted && j.state == JobState::Completing && !seen_.count(j.id))
                continue;
            auto [it, fresh] = seen_.try_emplace(j.id);
            Seen& seen = it->second;
            if (restarted) { // requeued after its end, and started again: book the end now
                const JobEnd& end = e->second;
                add(end.nodes, Run{&end.account, double(end.cpus), end.nodes.size(),
                                   std::max(from, fresh ? end.start_time : seen.booked_until), end.end_time});
                restarts.insert(j.id);
            }
            if (fresh || restarted)
                seen.booked_until = std::max(from, j.start_time > 0 ? j.start_time : from);
            seen.account = j.account; // as the snapshot has it now (scontrol update may change it)
            seen.cpus = double(j.cpus);
            seen.nodes = j.nodes;
            seen.listed = true;
            add(seen.nodes, Run{&seen.account, seen.cpus, seen.nodes.size(), std::max(from, seen.booked_until), now});
            seen.booked_until = now;
        }
    // Ended since: to the end, from where its booking stopped (or its start).
    for (const auto& [id, e] : ended_) {
        if (restarts.count(id))
            continue;
        auto it = seen_.find(id);
        if (it == seen_.end() && !on_cloud(e.nodes))
            continue; // a local job
        const Time begin = it != seen_.end() ? std::max(from, it->second.booked_until) : std::max(from, e.start_time);
        add(e.nodes, Run{&e.account, double(e.cpus), e.nodes.size(), begin, e.end_time});
        if (it != seen_.end())
            it->second.listed = false; // forgotten below, not booked again
        done_[id] = Done{e.end_time, true};
    }
    // Gone without an end (requeued, or the end not heard of): to now.
    for (const auto& [id, seen] : seen_)
        if (!seen.listed && !ended_.count(id))
            add(seen.nodes, Run{&seen.account, seen.cpus, seen.nodes.size(), std::max(from, seen.booked_until), now});
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
    // Runs point into seen_ and ended_: both change only now.
    for (auto it = seen_.begin(); it != seen_.end();)
        it = it->second.listed ? std::next(it) : seen_.erase(it);
    ended_.clear();
    for (auto it = done_.begin(); it != done_.end();) // ended jobs no snapshot lists any more
        it = it->second.listed ? std::next(it) : done_.erase(it);
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

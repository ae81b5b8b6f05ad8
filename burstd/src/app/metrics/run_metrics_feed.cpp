#include "app/metrics/run_metrics_feed.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <unordered_set>

namespace burst {

namespace {

// Slurm leaves eligible_time 0 for a job it never held back.
Seconds wait_of(Time eligible, Time submit, Time start)
{
    const Time from = eligible > 0 ? eligible : submit;
    return std::max<Seconds>(0, start - from);
}

bool out_of_service(const Node& n)
{
    return n.base == NodeBaseState::Down || n.base == NodeBaseState::Future || n.has(kNodeFail) ||
           n.has(kNodeNotResponding);
}

} // namespace

RunMetricsFeed::RunMetricsFeed(Time epoch, double tau) : epoch_(epoch), metrics_(tau, false) {}

void RunMetricsFeed::snapshot(const Snapshot& snap, Time now)
{
    // Cloud nodes kept the power state the last snapshot showed until now.
    if (last_snapshot_ && now > *last_snapshot_)
        metrics_.cloud_powered(powered_cores_ * (now - *last_snapshot_));
    last_snapshot_ = now;

    for (auto& [id, c] : started_)
        if (c.missing_since < 0)
            c.missing_since = now;
    // Slurm shows a job on booting CLOUD nodes RUNNING (CONFIGURING) from its
    // allocation, and sets its start time again when they are up: its wait
    // counts then, boot included, as burstsim counts it.
    std::unordered_set<std::string_view> booting;
    for (const auto& n : snap.nodes)
        if (n.has(kNodePoweringUp))
            booting.insert(n.name);
    double demand = 0;
    for (const auto& j : snap.jobs) {
        if (!j.pending() && !j.running())
            continue;
        // A job held back by a dependency, a hold or a limit is no demand a
        // node could serve yet: the policies do not count it waiting
        // (SiteView), nor does burstsim before its parents end and its
        // release.
        if (!j.blocked())
            demand += double(j.total_cpus());
        if (!j.running() || j.start_time <= 0)
            continue;
        auto it = started_.find(j.id);
        if (it != started_.end()) {
            it->second.missing_since = -1;
            continue;
        }
        if (j.start_time < epoch_ ||
            std::any_of(j.nodes.begin(), j.nodes.end(), [&](const std::string& n) { return booting.count(n) > 0; }))
            continue;
        const Seconds wait = wait_of(j.eligible_time, j.submit_time, j.start_time);
        metrics_.job_started(j.cpus, wait);
        started_.emplace(j.id, Counted{wait, false, -1});
    }
    for (auto it = started_.begin(); it != started_.end();)
        it = it->second.missing_since >= 0 && now - it->second.missing_since >= kForgetAfter ? started_.erase(it)
                                                                                           : std::next(it);

    double supply = 0, capacity = 0;
    powered_cores_ = 0;
    for (const auto& n : snap.nodes) {
        capacity += n.cpus;
        if (n.cloud()) {
            if (!n.has(kNodePoweredDown)) {
                powered_cores_ += n.cpus;
                supply += n.cpus;
            }
        } else if (!out_of_service(n)) {
            supply += n.cpus;
        }
    }
    metrics_.provisioning().capacity = capacity;
    metrics_.provisioning().add(demand, supply);
}

void RunMetricsFeed::job_end(const JobEnd& end)
{
    auto it = started_.find(end.id);
    if (it != started_.end() && it->second.ended)
        return; // sent twice
    const Time start = end.start_time > 0 ? end.start_time : end.end_time - end.elapsed;
    if (!end.node_group.empty()) {
        const Seconds busy = end.end_time - std::max(start, epoch_);
        if (busy > 0)
            metrics_.cloud_busy(double(end.cpus) * busy);
    }
    Seconds wait = 0;
    if (it != started_.end()) {
        it->second.ended = true;
        wait = it->second.wait;
    } else {
        // Started and ended between two snapshots; an older plugin does not
        // say when it became eligible, and a job from before the epoch was
        // counted by the burstd before.
        if (end.start_time <= 0 || end.eligible_time <= 0 || start < epoch_)
            return;
        wait = wait_of(end.eligible_time, 0, start);
        metrics_.job_started(end.cpus, wait);
        started_.emplace(end.id, Counted{wait, true, end.end_time});
    }
    metrics_.job_ended(wait, end.elapsed, end.end_time);
}

void RunMetricsFeed::spend(const SpendView& view)
{
    // The first view, and one in a re-sized interval, only set the base:
    // their totals hold money spent before this burstd or already counted.
    if (last_spend_ && last_spend_->interval == view.interval) {
        const bool same = last_spend_->interval_start == view.interval_start;
        auto grown = [&](double now, double before) { return std::max(0.0, same ? now - before : now); };
        metrics_.cloud_cost(grown(view.total, last_spend_->total));
        for (const auto& [account, amount] : view.accounts) {
            if (account.empty())
                continue; // the rest of the total, not a job's
            auto before = last_spend_->accounts.find(account);
            metrics_.account_cost(account,
                                  grown(amount, before == last_spend_->accounts.end() ? 0.0 : before->second));
        }
    }
    last_spend_ = view;
}

void RunMetricsFeed::budgets(const std::vector<BudgetStanding>& standings, Time now)
{
    for (const auto& b : standings) {
        if (!(b.limit.interval > 0))
            continue;
        metrics_.budget_spend(b.account + "@" + std::to_string(b.limit.interval), interval_start(now, b.limit.interval),
                              b.spent, b.limit.amount);
    }
}

} // namespace burst

#include "policy/budget_cap.hpp"

#include "policy/cloud_cost_bound.hpp"
#include "policy/reason_text.hpp"
#include "policy/site_view.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace burst {

namespace {

std::string per_interval(Seconds s)
{
    if (s == 60)
        return "minute";
    if (s == 3600)
        return "hour";
    if (s == 86400)
        return "day";
    if (s == 604800)
        return "week";
    const auto whole = [&](Seconds unit) { return std::fmod(s, unit) == 0; };
    if (whole(86400))
        return std::to_string(std::int64_t(s / 86400)) + " days";
    if (whole(3600))
        return std::to_string(std::int64_t(s / 3600)) + " h";
    return std::to_string(std::int64_t(std::llround(s))) + " s";
}

std::string whose(const std::string& account)
{
    return account.empty() ? "capacity no job uses (Budget=*)" : "account " + account;
}

} // namespace

const BudgetLimit* budget_limit_for(const std::vector<BudgetLimit>& limits, const std::string& account)
{
    const BudgetLimit* any = nullptr;
    for (const auto& l : limits) {
        if (l.account == account && account != "*")
            return &l;
        if (l.account == "*")
            any = &l;
    }
    return any;
}

bool within_budget(double total, double amount) { return total <= amount + 1e-9 * std::max(1.0, amount); }

BudgetCap::BudgetCap(std::vector<BudgetLimit> limits, SuspendTimes suspend_times, const ClusterState& state,
                     const IntervalSpend& spent, Time now)
    : limits_(std::move(limits)), suspend_times_(std::move(suspend_times)), state_(state), spent_(spent)
{
    if (limits_.empty())
        return;
    CloudNodes cloud;
    for (const auto& g : state_.groups)
        for (const auto& n : g.nodes)
            cloud[n] = {&g, false};
    for (const auto& n : state_.snapshot.nodes)
        if (auto it = cloud.find(n.name); it != cloud.end())
            it->second.second = n.has(kNodePoweringUp);
    for (const auto& job : state_.snapshot.jobs) {
        if (job.pending()) {
            jobs_.emplace(job.id, &job);
            commit_routed(job);
        } else if (job.running()) {
            commit_running(job, cloud, now);
        }
    }
    commit_idle_nodes(now);
}

std::optional<Seconds> BudgetCap::suspend_time(const NodeGroup& group) const
{
    auto it = suspend_times_.find(group.name);
    return it != suspend_times_.end() ? it->second : std::nullopt;
}

const BudgetLimit* BudgetCap::limit_for(const std::string& account) const
{
    return budget_limit_for(limits_, account);
}

BudgetCap::Account* BudgetCap::account(const std::string& name)
{
    auto it = accounts_.find(name);
    if (it != accounts_.end())
        return &it->second;
    const BudgetLimit* limit = limit_for(name);
    if (!limit)
        return nullptr;
    Account a;
    a.limit = limit;
    if (auto interval = spent_.find(limit->interval); interval != spent_.end())
        if (auto s = interval->second.find(name); s != interval->second.end())
            a.spent = s->second;
    return &accounts_.emplace(name, a).first->second;
}

void BudgetCap::commit_running(const Job& job, const CloudNodes& cloud, Time now)
{
    Account* a = nullptr;
    double total = 0;
    for (const auto& name : job.nodes) {
        auto node = cloud.find(name);
        if (node == cloud.end())
            continue;
        if (!a && !(a = account(job.account)))
            return;
        auto bound = running_node_cost_bound(job, *node->second.first, node->second.second, now);
        if (!bound) {
            a->unbounded = "job " + std::to_string(job.id) + " runs on cloud nodes without a time limit";
            return;
        }
        total += *bound;
    }
    if (a) {
        a->committed += total;
        committed_by_job_[job.id] = total;
    }
}

void BudgetCap::commit_routed(const Job& job)
{
    double most = 0;
    bool routed = false;
    for (const auto& g : state_.groups) {
        if (std::find(job.partitions.begin(), job.partitions.end(), group_partition(g)) == job.partitions.end())
            continue;
        Account* a = account(job.account);
        if (!a)
            return;
        routed = true;
        auto bound = route_cost_bound(job, g);
        if (!bound) {
            a->unbounded = "job " + std::to_string(job.id) + " is routed to cloud nodes without a time limit";
            return;
        }
        most = std::max(most, *bound);
    }
    if (routed) {
        account(job.account)->committed += most;
        committed_by_job_[job.id] = most;
    }
}

void BudgetCap::commit_idle_nodes(Time now)
{
    Account* a = account("");
    if (!a)
        return;
    std::unordered_set<std::string> in_use;
    for (const auto& job : state_.snapshot.jobs)
        if (job.running())
            in_use.insert(job.nodes.begin(), job.nodes.end());
    for (const auto& i : state_.instances) {
        const NodeGroup* g = state_.group(i.node_group);
        if (!g || in_use.count(i.node) || i.state == InstanceState::Terminating ||
            i.state == InstanceState::Terminated || i.state == InstanceState::Failed)
            continue;
        Seconds boot_left = i.running_since > 0 ? 0 : i.requested_at + g->boot_time - now;
        auto bound = idle_node_cost_bound(*g, boot_left, suspend_time(*g));
        if (!bound) {
            a->unbounded = "idle node " + i.node + " never powers down (no SuspendTime in slurm.conf for its partition)";
            return;
        }
        a->committed += *bound;
    }
}

std::string BudgetCap::check_route(const RouteToCloud& route)
{
    auto job = jobs_.find(route.job);
    const NodeGroup* g = state_.group(route.group);
    if (job == jobs_.end() || !g)
        return {}; // the actuator reports what is wrong with it
    Account* a = account(job->second->account);
    if (!a)
        return {};
    const std::string head = "budget of " + whose(job->second->account);
    const std::string limit = money(a->limit->amount) + " per " + per_interval(a->limit->interval);
    const std::string id = "job " + std::to_string(route.job);
    auto bound = route_cost_bound(*job->second, *g);
    if (!bound)
        return head + " (" + limit + "): " + id + " has no time limit, so its cloud cost cannot be bounded; it stays local";
    if (!a->unbounded.empty())
        return head + " (" + limit + "): " + a->unbounded + ", so what the account has committed cannot be bounded; " +
               id + " stays local";
    double& before = committed_by_job_[route.job];
    const double extra = std::max(0.0, *bound - before);
    if (extra > 0 && !within_budget(a->spent + a->committed + extra, a->limit->amount))
        return head + ": " + money(a->spent) + " spent + " + money(a->committed) + " committed of " + limit + "; " +
               id + " would need up to " + money(*bound) + " on " + g->name + ", so it stays local";
    a->committed += extra;
    before += extra;
    return {};
}

std::string BudgetCap::check_hire(HireNodes& hire, std::string& reason, std::vector<std::string>& notes)
{
    const NodeGroup* g = state_.group(hire.group);
    Account* a = account("");
    if (!g || !a || hire.count == 0)
        return {};
    const std::string head = "budget of " + whose("");
    const std::string limit = money(a->limit->amount) + " per " + per_interval(a->limit->interval);
    const std::string what = "hiring " + std::to_string(hire.count) + " node(s) of " + g->name;
    auto each = idle_node_cost_bound(*g, g->boot_time, suspend_time(*g));
    if (!each)
        return head + " (" + limit + "): slurm.conf has no SuspendTime for " + g->name + "'s partition, so an idle hired node's cost cannot be bounded; " +
               what + " dropped";
    if (!a->unbounded.empty())
        return head + " (" + limit + "): " + a->unbounded + "; " + what + " dropped";
    if (*each <= 0)
        return {};
    const double left = a->limit->amount - a->spent - a->committed;
    std::uint32_t fit = hire.count;
    if (!within_budget(hire.count * *each, left))
        fit = left <= 0 ? 0 : std::uint32_t(std::min<double>(hire.count, std::floor(left / *each * (1 + 1e-12))));
    const std::string amounts = head + ": " + money(a->spent) + " spent + " + money(a->committed) + " committed of " +
                                limit + "; " + what + " would need up to " + money(hire.count * *each);
    if (fit == 0)
        return amounts + ", dropped";
    if (fit < hire.count) {
        notes.push_back(amounts + ", hiring " + std::to_string(fit));
        reason += "; the budget of " + whose("") + " allows " + std::to_string(fit) + " of " +
                  std::to_string(hire.count);
        hire.count = fit;
    }
    a->committed += fit * *each;
    return {};
}

std::vector<std::string> BudgetCap::filter(Decision& decision)
{
    std::vector<std::string> notes;
    if (limits_.empty())
        return notes;
    std::map<std::string, std::pair<std::string, std::size_t>> dropped; // account -> (first note, more)
    std::vector<Action> kept;
    kept.reserve(decision.actions.size());
    for (auto& action : decision.actions) {
        std::string why, account;
        if (const auto* route = std::get_if<RouteToCloud>(&action.what)) {
            why = check_route(*route);
            if (auto job = jobs_.find(route->job); job != jobs_.end())
                account = job->second->account;
        } else if (auto* hire = std::get_if<HireNodes>(&action.what)) {
            why = check_hire(*hire, action.reason, notes);
        }
        if (why.empty()) {
            kept.push_back(std::move(action));
            continue;
        }
        ++dropped_[action_kind(action)];
        auto [it, first] = dropped.try_emplace(account, why, 0);
        if (!first)
            ++it->second.second;
    }
    decision.actions = std::move(kept);
    for (const auto& [account, d] : dropped)
        notes.push_back(d.first + (d.second ? "; " + std::to_string(d.second) + " more action(s) for " + whose(account) +
                                                  " dropped too"
                                            : std::string()));
    return notes;
}

std::vector<BudgetStanding> BudgetCap::standings() const
{
    std::vector<BudgetStanding> out;
    for (const auto& [name, a] : accounts_)
        out.push_back(BudgetStanding{name, *a.limit, a.spent, a.committed, a.unbounded});
    return out;
}

} // namespace burst

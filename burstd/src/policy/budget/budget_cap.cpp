#include "policy/budget/budget_cap.hpp"

#include "policy/cost/billing_boundary.hpp"
#include "policy/cost/cloud_cost_bound.hpp"
#include "policy/reason_text.hpp"
#include "policy/site/site_view.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

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

// How much a job keeping a node (up `uptime` now) up longer than its bound
// assumes may add to the bill's overrun of its uptime, beyond the
// `counted` its bound holds already.
Seconds billing_headroom(const NodeGroup& g, Seconds uptime, Seconds counted)
{
    return std::max<Seconds>(
        0, billing_overrun_bound(g, uptime, std::numeric_limits<Seconds>::infinity()) - counted);
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
    commit_unused_capacity(cloud, now); // first: routes take from its open nodes
    for (const auto& job : state_.snapshot.jobs) {
        if (job.pending()) {
            jobs_.emplace(job.id, &job);
            commit_routed(job);
        } else if (job.running()) {
            commit_running(job, cloud, now);
        }
    }
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

std::optional<double> BudgetCap::route_unused(const Job& job, const NodeGroup& group) const
{
    auto open = open_.find(group.name);
    return open == open_.end() ? route_unused_cost_bound(job, group, OpenNodes(), 0, suspend_time(group))
                               : route_unused_cost_bound(job, group, open->second.nodes, open->second.free_cpus,
                                                         suspend_time(group));
}

void BudgetCap::take_open_cores(const Job& job, const NodeGroup& group)
{
    OpenCapacity& open = open_[group.name];
    const std::uint32_t tasks = std::max<std::uint32_t>(job.array_task_count, 1);
    const std::uint64_t cores = std::uint64_t(job.cpus) * tasks;
    const std::uint64_t taken = std::min(open.free_cpus, cores);
    open.free_cpus -= taken;
    // The rest resumes fresh nodes, and the cores it leaves free on them
    // are open to the routes after it: Slurm fills them before it resumes
    // more, which keeps them up as long as the longest job on them.
    const auto suspend = suspend_time(group);
    if (cores == taken || job.time_limit <= 0 || !suspend)
        return;
    const std::uint64_t per_node = group.cpus ? group.cpus : 1;
    const std::uint64_t nodes = std::max<std::uint64_t>(std::uint64_t(nodes_per_task(job, group)) * tasks,
                                                        (cores - taken + per_node - 1) / per_node);
    const std::uint64_t left = nodes * per_node - (cores - taken);
    if (left == 0)
        return;
    const Seconds busy_for = group.boot_bound() + job.time_limit;
    const Seconds down_at = busy_for + *suspend;
    const Seconds headroom =
        billing_headroom(group, 0, billing_overrun_bound(group, down_at, down_at + kPowerDownLag));
    for (std::uint64_t n = 0; n < nodes; ++n)
        if (const std::uint64_t free = left / nodes + (n < left % nodes); free > 0)
            open.nodes.add(OpenNode{std::uint32_t(free), busy_for, true, headroom});
    open.free_cpus += left;
}

void BudgetCap::commit_routed(const Job& job)
{
    double most = 0, unused = 0;
    bool routed = false;
    Account* capacity = account("");
    for (const auto& g : state_.groups) {
        if (!job.may_run_in(group_partition(g)))
            continue;
        if (!job.blocked())
            awaited_.insert(g.name);
        if (capacity) {
            auto bound = route_unused(job, g);
            if (!bound)
                capacity->unbounded = "job " + std::to_string(job.id) + " is routed to " + g.name +
                                      " without a time limit or SuspendTime, so the capacity it leaves idle "
                                      "cannot be bounded";
            else
                unused = std::max(unused, *bound);
            take_open_cores(job, g); // wherever it goes
        }
        Account* a = account(job.account);
        if (!a)
            continue;
        routed = true;
        auto bound = route_cost_bound(job, g);
        if (!bound) {
            a->unbounded = "job " + std::to_string(job.id) + " is routed to cloud nodes without a time limit";
            return;
        }
        most = std::max(most, *bound);
    }
    if (capacity && unused > 0) {
        capacity->committed += unused;
        unused_by_job_[job.id] = unused;
    }
    if (routed) {
        account(job.account)->committed += most;
        committed_by_job_[job.id] = most;
    }
}

void BudgetCap::commit_unused_capacity(const CloudNodes& cloud, Time now)
{
    Account* a = account("");
    if (!a)
        return;
    std::unordered_map<std::string, std::vector<const Job*>> on_node;
    for (const auto& job : state_.snapshot.jobs)
        if (job.running())
            for (const auto& n : job.nodes)
                if (auto& jobs = on_node[n]; jobs.empty() || jobs.back() != &job)
                    jobs.push_back(&job);
    std::unordered_map<std::string, std::uint32_t> free_cpus; // that a job may still be given
    for (const auto& n : state_.snapshot.nodes)
        if (cloud.count(n.name) && !n.has(kNodeDrain) && !n.has(kNodePoweringDown))
            free_cpus[n.name] = n.free_cpus();
    for (const auto& i : state_.instances) {
        const NodeGroup* g = state_.group(i.node_group);
        if (!g || i.state == InstanceState::Terminated || i.state == InstanceState::Failed)
            continue;
        const Seconds uptime = std::max<Seconds>(0, now - i.billed_since());
        if (i.state == InstanceState::Terminating) {
            a->committed += terminating_node_cost_bound(*g, uptime);
            continue;
        }
        auto jobs = on_node.find(i.node);
        auto node = cloud.find(i.node);
        const bool booting = jobs == on_node.end() ? i.running_since <= 0
                                                   : node != cloud.end() && node->second.second;
        std::optional<double> bound;
        Seconds busy_for = 0, headroom = 0;
        if (jobs == on_node.end()) {
            busy_for = booting ? std::max<Seconds>(0, i.requested_at + g->boot_bound() - now) : 0;
            bound = idle_node_cost_bound(*g, uptime, busy_for, suspend_time(*g));
            if (bound) {
                const Seconds down_at = uptime + busy_for + *suspend_time(*g);
                headroom = billing_headroom(*g, uptime, billing_overrun_bound(*g, down_at, down_at + kPowerDownLag));
            }
        } else if (auto busy = busy_node_unused_cost_bound(*g, jobs->second, booting, now, uptime,
                                                           suspend_time(*g))) {
            bound = busy->unused;
            busy_for = busy->busy_for;
            headroom = billing_headroom(*g, uptime,
                                        billing_overrun_bound(*g, uptime,
                                                              uptime + busy_for + *suspend_time(*g) + kPowerDownLag));
        }
        if (!bound) {
            a->unbounded = (jobs == on_node.end() ? "idle node " + i.node
                                                  : "node " + i.node + " runs a job without a time limit or it") +
                           " never powers down (no SuspendTime in slurm.conf for its partition)";
            return;
        }
        a->committed += *bound;
        if (auto f = free_cpus.find(i.node); f != free_cpus.end() && f->second > 0) {
            OpenCapacity& open = open_[g->name];
            open.nodes.add(OpenNode{f->second, busy_for, booting, headroom});
            open.free_cpus += f->second;
        }
    }
    for (const auto& span : state_.ended_but_billed)
        if (const NodeGroup* g = state_.group(span.node_group))
            a->committed += billed_after_power_down(*g, span, now);
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
    // What the route may leave unused is ""'s to pay (see the header).
    Account* c = account("");
    double unused_extra = 0;
    if (c) {
        auto unused = route_unused(*job->second, *g);
        if (!unused)
            return "budget of " + whose("") + " (" + money(c->limit->amount) + " per " +
                   per_interval(c->limit->interval) + "): " + id + " would leave " + g->name +
                   " nodes idle until a SuspendTime slurm.conf does not set, so their cost cannot be bounded; "
                   "it stays local";
        if (!c->unbounded.empty())
            return "budget of " + whose("") + " (" + money(c->limit->amount) + " per " +
                   per_interval(c->limit->interval) + "): " + c->unbounded + "; " + id + " stays local";
        unused_extra = std::max(0.0, *unused - unused_by_job_[route.job]);
        const double own = c == a ? extra : 0; // a job of account "" pays both from one line
        if (unused_extra > 0 && !within_budget(c->spent + c->committed + own + unused_extra, c->limit->amount))
            return "budget of " + whose("") + ": " + money(c->spent) + " spent + " + money(c->committed + own) +
                   " committed of " + money(c->limit->amount) + " per " + per_interval(c->limit->interval) + "; " + id +
                   " may leave up to " + money(*unused) + " of " + g->name +
                   " capacity unused (free cores, nodes kept up, idle until SuspendTime), so it stays local";
        take_open_cores(*job->second, *g);
    }
    a->committed += extra;
    before += extra;
    if (c) {
        c->committed += unused_extra;
        unused_by_job_[route.job] += unused_extra;
    }
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
    auto each = idle_node_cost_bound(*g, 0, g->boot_bound(), suspend_time(*g));
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
    // Jobs routed after the hire may land on its nodes (Slurm fills nodes up
    // or booting before it resumes more).
    OpenCapacity& open = open_[g->name];
    const Seconds down_at = g->boot_bound() + *suspend_time(*g);
    open.nodes.add(OpenNode{g->cpus, g->boot_bound(), true,
                            billing_headroom(*g, 0, billing_overrun_bound(*g, down_at, down_at + kPowerDownLag))},
                   fit);
    open.free_cpus += std::uint64_t(fit) * g->cpus;
    return {};
}

void BudgetCap::check_keep(KeepPlaceholders& keep, std::string& reason, std::vector<std::string>& notes)
{
    const NodeGroup* g = state_.group(keep.group);
    Account* a = account("");
    if (!g || !a)
        return;
    std::uint32_t on = 0, busy = 0;
    for (const auto& n : state_.snapshot.nodes)
        if (std::find(g->nodes.begin(), g->nodes.end(), n.name) != g->nodes.end() && !n.has(kNodePoweredDown) &&
            !n.has(kNodePoweringDown)) {
            ++on;
            busy += n.alloc_cpus > 0;
        }
    const std::string head = "budget of " + whose("");
    if (!within_budget(a->spent + a->committed, a->limit->amount)) {
        if (keep.count > busy) {
            notes.push_back(head + ": " + money(a->spent) + " spent + " + money(a->committed) + " committed of " +
                            money(a->limit->amount) + "; the warm pool of " + g->name + " keeps no idle node on");
            reason += "; the " + head + " is spent: no idle node kept on";
            keep.count = busy;
        }
        return;
    }
    if (keep.count <= on)
        return;
    HireNodes hire{keep.group, keep.count - on};
    std::string hire_reason;
    const std::string why = check_hire(hire, hire_reason, notes);
    const std::uint32_t fit = why.empty() ? hire.count : 0;
    if (!why.empty())
        notes.push_back(why);
    if (fit < keep.count - on) {
        reason += "; the " + head + " allows " + std::to_string(fit) + " more node(s) on";
        keep.count = on + fit;
    }
}

std::vector<std::string> BudgetCap::filter(Decision& decision)
{
    std::vector<std::string> notes;
    if (limits_.empty())
        return notes;
    std::map<std::string, std::pair<std::string, std::size_t>> dropped; // account -> (first note, more)
    std::vector<bool> keep(decision.actions.size(), true);
    struct Routes {
        std::size_t kept = 0, dropped = 0;
    };
    std::map<std::string, Routes> routes; // per group, of this decision
    // Routes first: a hire is for jobs to run on, and one that took the
    // budget the routes of those jobs need would leave its nodes idle.
    for (const bool hires : {false, true})
        for (std::size_t i = 0; i < decision.actions.size(); ++i) {
            Action& action = decision.actions[i];
            auto* hire = std::get_if<HireNodes>(&action.what);
            auto* pool = std::get_if<KeepPlaceholders>(&action.what);
            if ((hire != nullptr || pool != nullptr) != hires)
                continue;
            if (pool) {
                check_keep(*pool, action.reason, notes);
                continue;
            }
            std::string why, account;
            if (const auto* route = std::get_if<RouteToCloud>(&action.what)) {
                why = check_route(*route);
                if (auto job = jobs_.find(route->job); job != jobs_.end())
                    account = job->second->account;
                ++(why.empty() ? routes[route->group].kept : routes[route->group].dropped);
                if (why.empty()) // its job waits for the group's nodes, also for later policies' hires
                    awaited_.insert(route->group);
            } else if (hire) {
                const Routes r = routes[hire->group];
                if (r.dropped > 0 && r.kept == 0 && !awaited_.count(hire->group))
                    why = "budget: hiring " + std::to_string(hire->count) + " node(s) of " + hire->group +
                          " dropped: the budget keeps the jobs this decision routed there local, and no other "
                          "job waits for its nodes";
                else
                    why = check_hire(*hire, action.reason, notes);
            }
            if (why.empty())
                continue;
            keep[i] = false;
            ++dropped_[action_kind(action)];
            auto [it, first] = dropped.try_emplace(account, why, 0);
            if (!first)
                ++it->second.second;
        }
    std::vector<Action> kept;
    kept.reserve(decision.actions.size());
    for (std::size_t i = 0; i < decision.actions.size(); ++i)
        if (keep[i])
            kept.push_back(std::move(decision.actions[i]));
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

#include "policy/cycle/decision_cycle.hpp"

#include "policy/site/site_activity.hpp"
#include "policy/site/site_view.hpp"

#include <algorithm>

namespace burst {
namespace {

std::vector<JobId> routed_jobs(const std::vector<Action>& actions)
{
    std::vector<JobId> jobs;
    for (const auto& a : actions)
        if (const auto* route = std::get_if<RouteToCloud>(&a.what))
            jobs.push_back(route->job);
    return jobs;
}

} // namespace

void DecisionCycle::observe(const JobEnd& end)
{
    scaling_.observe(end);
    for (auto& policy : chain_)
        policy->observe(end);
}

CycleOutcome DecisionCycle::run(ClusterState& state, const Clock& clock, const CycleBudget* budget, ActionSink& sink)
{
    CycleOutcome out;
    out.time = clock.now();
    // Built once, for the stages that read the state as the cycle found it.
    std::optional<SiteView> found;
    if (buckets_) {
        found.emplace(SiteView::of(state));
        buckets_->observe(state, *found, out.time);
    }
    unroute_from_stopped_groups(state, found, sink, out);
    std::optional<BudgetCap> cap;
    if (budget && !budget->limits.empty())
        cap.emplace(budget->limits, budget->suspend_times, state, budget->spent, clock.now());
    for (auto& policy : chain_) {
        const std::string name(policy->name());
        // Asked of the state as the links before left it.
        Decision d;
        d.time = out.time;
        if (policy->wants_decision(SiteActivity(state)))
            d = policy->decide(state, clock);
        if (cap) {
            const std::vector<JobId> asked = routed_jobs(d.actions);
            for (auto& note : cap->filter(d))
                out.notes.push_back(CycleNote{name, std::move(note), true});
            std::vector<JobId> let_through = routed_jobs(d.actions);
            std::sort(let_through.begin(), let_through.end());
            for (JobId job : asked)
                if (!std::binary_search(let_through.begin(), let_through.end(), job))
                    out.held_by_budget.push_back(job);
        }
        sink.begin_decision(name, d);
        for (auto& action : d.actions) {
            std::string error = sink.apply(action, state);
            out.actions.push_back(CycleAction{name, std::move(action), std::move(error)});
        }
        for (auto& note : d.notes)
            out.notes.push_back(CycleNote{name, std::move(note), false});
        for (auto& verdict : d.verdicts)
            out.verdicts.push_back(CycleVerdict{name, std::move(verdict)});
    }
    if (threads_) {
        ThreadStageOutcome chosen = threads_->decide(state, scaling_);
        const std::string name = "threads:" + std::string(threads_->name());
        Decision d;
        d.actions = std::move(chosen.actions);
        sink.begin_decision(name, d);
        for (auto& action : d.actions) {
            std::string error = sink.apply(action, state);
            out.actions.push_back(CycleAction{name, std::move(action), std::move(error)});
        }
        out.advice_changed = chosen.advice_changed;
    }
    if (cap) {
        out.over_budget = cap->dropped();
        out.standings = cap->standings();
    }
    return out;
}

void DecisionCycle::unroute_from_stopped_groups(ClusterState& state, std::optional<SiteView>& found, ActionSink& sink,
                                                CycleOutcome& out)
{
    bool any = false;
    for (const auto& [group, limit] : state.hire_limits)
        any = any || limit == 0;
    if (!any)
        return;
    // A job routed to a group that may not launch would only get its nodes
    // resumed and handed back, one requeue after another: it keeps its other
    // partitions until the group hires again, and the policies may route it
    // to another group.  Jobs with no other partition are left alone.
    std::vector<UnrouteJob> unroutes;
    {
        if (!found)
            found.emplace(SiteView::of(state));
        const SiteView& view = *found;
        for (std::size_t i = 0; i < view.pending.size(); ++i) {
            if (view.pending_group[i] < 0)
                continue;
            const GroupView& g = view.groups[std::size_t(view.pending_group[i])];
            auto limit = state.hire_limits.find(g.group->name);
            if (limit == state.hire_limits.end() || limit->second != 0 ||
                g.free_up_cpus + g.free_booting_cpus >= view.pending[i]->total_cpus())
                continue;
            const Job& job = *view.pending[i];
            const bool elsewhere = std::any_of(job.partitions.begin(), job.partitions.end(), [&](const auto& p) {
                return p != group_partition(*g.group);
            });
            if (elsewhere)
                unroutes.push_back(UnrouteJob{job.id, g.group->name});
        }
    }
    for (auto& unroute : unroutes) {
        Action action{unroute, "node group " + unroute.group + " is not launching"};
        std::string error = sink.apply(action, state);
        out.actions.push_back(CycleAction{kCycleLink, std::move(action), std::move(error)});
    }
}

} // namespace burst

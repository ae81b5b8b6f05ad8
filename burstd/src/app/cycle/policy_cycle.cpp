#include "app/cycle/policy_cycle.hpp"

#include "app/config/budget_conf.hpp"
#include "app/metrics/run_metrics_json.hpp"
#include "app/cycle/timed_policy.hpp"
#include "policy/cycle/applied_action.hpp"
#include "common/json_ref.hpp"
#include "model/hostlist.hpp"
#include "policy/cost/billing_boundary.hpp"
#include "policy/cost/cloud_cost_bound.hpp"
#include "policy/site/site_view.hpp"
#include "policy/warm/warm_pool_policy.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <type_traits>
#include <unordered_map>

namespace burst {

namespace {

const char* state_word(const Node& n)
{
    if (n.has(kNodePoweringUp))
        return "powering_up";
    if (n.has(kNodePoweringDown))
        return "powering_down";
    if (n.has(kNodePoweredDown))
        return "powered_down";
    if (n.has(kNodeDrain))
        return "draining";
    if (n.has(kNodeNotResponding) || n.has(kNodeFail) || n.base == NodeBaseState::Down)
        return "down";
    switch (n.base) {
    case NodeBaseState::Idle: return "idle";
    case NodeBaseState::Mixed: return "mixed";
    case NodeBaseState::Allocated: return "allocated";
    default: return "unknown";
    }
}

} // namespace

// Applies the decision cycle's actions through the Slurm actuator, logging
// each with its reason and keeping it for status.
class PolicyCycle::SlurmSink final : public ActionSink {
public:
    SlurmSink(PolicyCycle& cycle, const CycleContext& ctx) : cycle_(cycle), ctx_(ctx) {}

    void begin_decision(std::string_view, const Decision& decision) override
    {
        cycle_.hiring_.clear();
        for (const auto& a : decision.actions)
            if (auto h = std::get_if<HireNodes>(&a.what))
                cycle_.hiring_.push_back(h->group);
    }
    std::string apply(const Action& action, ClusterState& state) override;

private:
    PolicyCycle& cycle_;
    const CycleContext& ctx_;
};

namespace {

// "3aa18d7a4625f7d9 4, 0c1f... 1" (the first kShown, then how many more).
std::string advice_text(const std::map<std::string, std::uint32_t>& advice)
{
    constexpr std::size_t kShown = 8;
    std::string text;
    std::size_t shown = 0;
    for (const auto& [category, count] : advice) {
        if (shown++ == kShown)
            return text + " and " + std::to_string(advice.size() - kShown) + " more categories";
        text += (text.empty() ? "" : ", ") + category + " " + std::to_string(count);
    }
    return text.empty() ? "none known" : text;
}

} // namespace

PolicyCycle::PolicyCycle(PolicyChain chain, Ledger& ledger, SlurmActuator& actuator, InstanceManager& instances,
                         std::uint32_t reconcile_every, std::unique_ptr<ThreadStage> threads)
    : cycle_(timed(std::move(chain)), std::move(threads)), ledger_(ledger), ledger_window_(ledger, kRecentBoots),
      actuator_(actuator), instances_(instances), reconcile_every_(reconcile_every ? reconcile_every : 1),
      placeholders_(actuator), interactive_(actuator), scavengers_(actuator, ledger)
{
    // What the last run learned of thread scaling, before any job end of this one.
    try {
        scaling_errors_ = cycle_.scaling().restore(ledger_.thread_scaling());
    } catch (const std::exception& e) {
        scaling_errors_.push_back("thread scaling: cannot read what was learned before the restart, so it is "
                                  "learned anew: " + std::string(e.what()));
    }
}

PolicyChain PolicyCycle::timed(PolicyChain chain)
{
    for (auto& policy : chain)
        policy = std::make_unique<TimedPolicy>(std::move(policy), stats_.last_decide_seconds);
    return chain;
}

void PolicyCycle::observe(const JobEnd& end)
{
    run_metrics_.job_end(end);
    budget_spend_.job_ended(end);
    cycle_.observe(end);
}

void PolicyCycle::remember(AppliedAction a)
{
    recent_.push_back(std::move(a));
    while (recent_.size() > kKeptActions)
        recent_.pop_front();
}

void PolicyCycle::run(const CycleContext& ctx)
{
    last_groups_ = ctx.config.node_groups;
    if (!ctx.snapshot) {
        ctx.log.verbose("cycle: no snapshot from the plugin yet; nothing to decide");
        return;
    }
    ++runs_;
    last_nodes_ = ctx.snapshot->nodes;
    instances_.observe_nodes(ctx.snapshot->nodes);
    // The first snapshot after start-up is the first chance to see what a
    // crash left behind.
    if ((runs_ - 1) % reconcile_every_ == 0)
        instances_.reconcile(ctx.snapshot->nodes);
    else
        instances_.reconcile_lost_contact(ctx.snapshot->nodes);

    // The cycle's own copy: fencing and unrouting below change nodes' and
    // jobs' state in it as Slurm will show them, for the policies to decide
    // on, while the daemon keeps the snapshot as received for status and
    // for later cycles until the next one arrives.
    ClusterState state;
    state.snapshot = *ctx.snapshot;
    placeholders_.set_qos(ctx.config.standby_qos.placeholder);
    StandbyQos standby_qos = ctx.config.standby_qos;
    standby_qos.placeholder = placeholders_.qos(); // the last one, should a reload have taken it out
    if (!standby_qos.interactive_hold.empty())
        interactive_hold_qos_ = standby_qos.interactive_hold;
    standby_qos.interactive_hold = interactive_hold_qos_;
    state.standby = set_aside_standby_jobs(state.snapshot, standby_qos);
    state.groups = ctx.config.node_groups;
    for (auto& g : state.groups)
        g.longest_boot = slurm_boot_bound(timeouts_.resume_timeout, ctx.config.cycle_interval);
    const std::vector<BudgetLimit> limits = budget_limits(ctx.config.budgets);
    spend_interval_ = reported_spend_interval(limits);
    // The spend trackers book from their interval's start at the latest
    // what every instance billed since; one that ended is billed for up to
    // its group's longest bill past an end (billing_boundary.hpp) more.
    Seconds interval = spend_interval_, tail = 0;
    for (const auto& l : limits)
        interval = std::max(interval, l.interval);
    for (const auto& g : state.groups)
        tail = std::max(tail, billed_seconds(g, 0));
    ledger_window_.refresh(ctx.now - interval - tail);
    const std::vector<LedgerRecord>& records = ledger_window_.records();
    for (const auto& r : records)
        if (r.open())
            state.instances.push_back(r.to_instance());
    state.boots = ledger_window_.boots();
    const std::vector<BilledSpan> billed = billed_spans(records);
    state.ended_but_billed = spans_billed_past_end(billed, state.groups, ctx.now);
    for (const auto& error : scaling_errors_)
        ctx.log.error(error);
    scaling_errors_.clear();
    try {
        ledger_.save_thread_scaling(cycle_.scaling().take_changed());
    } catch (const std::exception& e) {
        ctx.log.error("thread scaling: cannot keep what was learned in the ledger (a restart would forget "
                      "it): " + std::string(e.what()));
    }
    if (runs_ == 1) // carry on from what the last run booked to the accounts
        try {
            budget_spend_.resume(ledger_.spend_bookings());
        } catch (const std::exception& e) {
            ctx.log.error("spend: cannot read the accounts' spend booked before the restart, so this interval's "
                          "spend so far is split over the jobs running now: " + std::string(e.what()));
        }
    const IntervalSpend spent =
        budget_spend_.update(ctx.now, limits, billed, state.snapshot.jobs, state.groups, spend_interval_);
    try {
        ledger_.save_spend_bookings(budget_spend_.bookings());
    } catch (const std::exception& e) {
        ctx.log.error("spend: cannot keep the accounts' spend in the ledger (a restart would split this "
                      "interval's spend so far over the jobs running then): " + std::string(e.what()));
    }
    const SpendView& spend = this->spend();
    run_metrics_.snapshot(state.snapshot, ctx.now);
    run_metrics_.spend(spend);
    state.hire_limits = instances_.health().hire_limits(ctx.now);
    fence_stopped_groups(state, ctx);
    stats_.fenced_nodes = fence_.fenced().size();
    std::optional<CycleBudget> budget;
    if (!limits.empty()) {
        budget.emplace();
        budget->limits = limits;
        for (const auto& g : state.groups)
            budget->suspend_times[g.name] = timeouts_.suspend_time_of(group_partition(g));
        budget->spent = spent;
    }
    std::vector<std::string> notes;
    for (const auto& [group, limit] : state.hire_limits)
        if (auto v = instances_.health().view(group, ctx.now))
            notes.push_back("node group " + group + " " + v->mode + (limit ? " (one probe launch allowed)" : "") +
                            ": " + v->reason);
    ++stats_.runs;
    stats_.last_decide_seconds = 0;
    picked_.clear();
    note_scavenger_steps(scavengers_.settle(state, ctx.config.scavenge_warm_nodes), ctx);
    placeholders_.set_pinned(scavengers_.pinned(state, placeholders_));
    free_warm_nodes_for_waiting_jobs(state, ctx);
    ManualClock clock(ctx.now);
    SlurmSink sink(*this, ctx);
    CycleOutcome outcome = cycle_.run(state, clock, budget ? &*budget : nullptr, sink);
    release_orphaned_placeholders(state, ctx);
    if (ctx.config.scavenge_warm_nodes)
        note_scavenger_steps(scavengers_.fill_warm_nodes(state, placeholders_, ctx.now), ctx);
    note_scavenger_steps(scavengers_.keep_off_cloud(state, ctx.config.scavenge_warm_nodes), ctx);
    keep_interactive_holds(state, ctx);
    count_warm_pools(state);
    stats_.decide_seconds_sum += stats_.last_decide_seconds;
    whys_.publish(job_whys(outcome, state.snapshot, state.groups), state.snapshot, ctx.now, actuator_, ctx.log);
    for (const auto& note : outcome.notes) {
        const std::string line = note.policy + ": " + note.text;
        if (note.budget)
            ctx.log.info("policy " + line);
        else
            ctx.log.verbose("policy " + line);
        notes.push_back(line);
    }
    for (const auto& [kind, dropped] : outcome.over_budget)
        stats_.actions[{kind, "over_budget"}] += dropped;
    last_notes_ = std::move(notes);
    last_budgets_ = outcome.standings;
    const ThreadStage* threads = cycle_.threads();
    if (threads && outcome.advice_changed)
        ctx.log.info("thread advice for new --threads=auto jobs: " + advice_text(threads->advice()));
    if (advice_sink_ && threads &&
        (outcome.advice_changed || advice_resend_ || stats_.runs >= advice_sent_run_ + kAdviceResendCycles)) {
        advice_sink_(threads->advice());
        advice_sent_run_ = stats_.runs;
        advice_resend_ = false;
    } else if (advice_sink_ && !threads && advice_sent_run_) {
        ctx.log.info("thread advice withdrawn from job_submit/burst: no ThreadPolicy= line any more");
        advice_sink_({});
        advice_sent_run_ = 0;
    }
    last_outcome_ = std::move(outcome);
    run_metrics_.budgets(last_budgets_, ctx.now);
}

void PolicyCycle::note_scavenger_steps(std::vector<ScavengerPlacement::Step> steps, const CycleContext& ctx)
{
    for (auto& step : steps) {
        AppliedAction done;
        done.time = ctx.now;
        done.action = std::move(step.action);
        done.reason = std::move(step.reason);
        done.error = std::move(step.error);
        if (done.error.empty())
            ctx.log.info("decision: " + done.action + ": " + done.reason);
        else
            ctx.log.error("decision: " + done.action + " failed: " + done.error);
        remember(std::move(done));
    }
}

void PolicyCycle::keep_interactive_holds(const ClusterState& state, const CycleContext& ctx)
{
    const InteractiveHolds::Settings settings{ctx.config.interactive, ctx.config.interactive_qos,
                                              interactive_hold_qos_};
    std::vector<std::string> errors;
    for (auto& did : interactive_.keep(settings, state, ctx.now, errors)) {
        ctx.log.info("decision: " + did);
        AppliedAction done;
        done.time = ctx.now;
        done.action = std::move(did);
        done.reason = "Interactive=";
        ++stats_.actions[{"interactive_holds", "applied"}];
        remember(std::move(done));
    }
    for (auto& error : errors) {
        ctx.log.error("decision: " + error);
        ++stats_.actions[{"interactive_holds", "failed"}];
        AppliedAction failed;
        failed.time = ctx.now;
        failed.action = "interactive holds";
        failed.reason = "Interactive=";
        failed.error = std::move(error);
        remember(std::move(failed));
    }
    stats_.interactive.clear();
    const std::vector<JobId> none;
    for (const auto& r : ctx.config.interactive)
        stats_.interactive[r.partition] =
            InteractiveStats{r.cores, interactive_readiness(r.partition, state, ctx.config.interactive_qos, none)};
    for (const auto& h : state.standby.interactive_holds)
        if (h.name == kInteractiveHoldName)
            for (const auto& p : h.partitions)
                if (!stats_.interactive.count(p))
                    stats_.interactive[p] =
                        InteractiveStats{0, interactive_readiness(p, state, ctx.config.interactive_qos, none)};
}

void PolicyCycle::count_warm_pools(const ClusterState& state)
{
    stats_.warm.clear();
    for (const auto& g : state.groups) {
        WarmPoolStats pool;
        if (auto target = placeholders_.targets().find(g.name); target != placeholders_.targets().end())
            pool.keep = target->second.keep;
        for (const Job* p : placeholders_of(g, state))
            if (!placeholders_.cancelled(p->id))
                ++(p->pending() ? pool.placeholders_queued : pool.placeholders_running);
        for (const auto& j : state.standby.scavengers)
            pool.scavengers_running += j.running() && std::any_of(j.nodes.begin(), j.nodes.end(), [&](const auto& n) {
                                           return std::find(g.nodes.begin(), g.nodes.end(), n) != g.nodes.end();
                                       });
        if (pool.keep || pool.placeholders_running + pool.placeholders_queued + pool.scavengers_running > 0)
            stats_.warm[g.name] = pool;
    }
}

void PolicyCycle::free_warm_nodes_for_waiting_jobs(const ClusterState& state, const CycleContext& ctx)
{
    for (const auto& g : state.groups) {
        if (placeholders_of(g, state).empty() && scavengers_holding(g, state).empty())
            continue;
        AppliedAction done;
        done.time = ctx.now;
        done.reason = "real work takes warm nodes first";
        done.action = placeholders_.free_for_waiting(g, state, ctx.now, done.error);
        if (done.action.empty() && done.error.empty())
            continue;
        if (done.error.empty()) {
            ctx.log.info("decision: " + done.action + ": real jobs wait in " + group_partition(g) + "; " + done.reason);
        } else {
            done.action = "free warm nodes of " + g.name + (done.action.empty() ? "" : ": " + done.action);
            ctx.log.error("decision: " + done.action + " failed: " + done.error);
        }
        remember(std::move(done));
    }
}

void PolicyCycle::release_orphaned_placeholders(const ClusterState& state, const CycleContext& ctx)
{
    const std::vector<std::string> chain = chain_names();
    if (std::find(chain.begin(), chain.end(), WarmPoolPolicy::kName) != chain.end())
        return;
    placeholders_.forget_targets();
    for (const auto& g : state.groups) {
        if (placeholders_of(g, state).empty() && scavengers_holding(g, state).empty())
            continue;
        AppliedAction done;
        done.time = ctx.now;
        done.reason = "no Policy=warm line any more";
        const std::string did = placeholders_.keep(g, 0, state, ctx.now, done.reason, done.error);
        if (did.empty() && done.error.empty())
            continue;
        done.action = "keep no warm node of " + g.name + (did.empty() ? "" : ": " + did);
        if (done.error.empty())
            ctx.log.info("decision: " + done.action + ": " + done.reason);
        else
            ctx.log.error("decision: " + done.action + " (" + done.reason + ") failed: " + done.error);
        remember(std::move(done));
    }
}

void PolicyCycle::fence_stopped_groups(ClusterState& state, const CycleContext& ctx)
{
    FencePlan plan = fence_.plan(state.groups, state.snapshot.nodes, state.hire_limits, [&](const std::string& group) {
        auto v = instances_.health().view(group, ctx.now);
        if (!v)
            return "node group " + group + " is not launching";
        return "node group " + group + " " + v->mode + " (" + std::string(to_string(v->cause)) + "): " + v->reason;
    });
    auto set_drain = [&](const std::vector<std::string>& names, bool drain) {
        for (auto& n : state.snapshot.nodes)
            if (std::find(names.begin(), names.end(), n.name) != names.end())
                n.flags = drain ? n.flags | kNodeDrain : n.flags & ~std::uint32_t(kNodeDrain);
    };
    for (const auto& [reason, nodes] : plan.drain) {
        AppliedAction done;
        done.time = ctx.now;
        done.reason = reason;
        done.action = "drain " + compress_hostlist(nodes) + " so Slurm does not resume them";
        done.error = actuator_.drain(nodes, reason).message;
        if (done.error.empty()) {
            fence_.drained(nodes);
            set_drain(nodes, true);
            ctx.log.info("decision: " + done.action + ": " + reason);
        } else {
            ctx.log.error("decision: " + done.action + " failed: " + done.error);
        }
        remember(std::move(done));
    }
    if (plan.undrain.empty())
        return;
    std::vector<std::string> cleared;
    AppliedAction done;
    done.time = ctx.now;
    done.reason = "their node group may launch again";
    done.action = "undrain " + compress_hostlist(plan.undrain) + " (those burstd drained)";
    done.error = actuator_.undrain_own(plan.undrain, kFenceReasonPrefix, cleared).message;
    if (!done.error.empty()) {
        ctx.log.error("decision: " + done.action + " failed: " + done.error);
        remember(std::move(done));
        return;
    }
    fence_.undrain_done(plan.undrain);
    set_drain(cleared, false);
    if (cleared.empty())
        return; // all drained by someone else: theirs to clear
    done.action = "undrain " + compress_hostlist(cleared);
    ctx.log.info("decision: " + done.action + ": " + done.reason);
    remember(std::move(done));
}

std::string PolicyCycle::SlurmSink::apply(const Action& action, ClusterState& state)
{
    const CycleContext& ctx = ctx_;
    AppliedAction done;
    done.time = ctx.now;
    done.reason = action.reason;
    std::pair<const Job*, const NodeGroup*> routed{nullptr, nullptr}; // a job Slurm accepted as cloud-eligible
    std::optional<Action> reflected; // what took effect, where it is less than the action
    auto find_job = [&](JobId id) -> const Job* {
        auto it = std::find_if(state.snapshot.jobs.begin(), state.snapshot.jobs.end(),
                               [&](const Job& j) { return j.id == id; });
        return it == state.snapshot.jobs.end() ? nullptr : &*it;
    };
    // A route's or unroute's job and group; nulls, and why in done.error, if either is unknown.
    auto job_in_group = [&](JobId id, const std::string& group) -> std::pair<const Job*, const NodeGroup*> {
        const NodeGroup* g = state.group(group);
        const Job* job = find_job(id);
        if (g && job)
            return {job, g};
        done.error = !g ? "unknown node group" : "job is not in the snapshot";
        return {nullptr, nullptr};
    };
    std::visit(
        [&](const auto& what) {
            using T = std::decay_t<decltype(what)>;
            if constexpr (std::is_same_v<T, RouteToCloud>) {
                done.action = "route job " + std::to_string(what.job) + " to group " + what.group;
                const auto [job, g] = job_in_group(what.job, what.group);
                if (!job)
                    return;
                std::vector<std::string> parts = job->partitions.names();
                if (std::find(parts.begin(), parts.end(), g->partition) != parts.end())
                    return; // already eligible: the exporter has not caught up
                parts.push_back(g->partition);
                std::string freeing_error;
                const std::string freed = cycle_.placeholders_.make_room(*job, *g, state, ctx.now, freeing_error);
                if (!freed.empty())
                    ctx.log.info("decision: " + freed + ": real work takes warm nodes first");
                if (!freeing_error.empty())
                    ctx.log.error("decision: freeing warm nodes of " + g->name + " for job " +
                                  std::to_string(job->id) + " failed: " + freeing_error);
                done.action += " (partitions " + [&] {
                    std::string s;
                    for (const auto& p : parts)
                        s += (s.empty() ? "" : ",") + p;
                    return s;
                }() + ")";
                done.error = cycle_.actuator_.set_job_partitions(what.job, parts, action.reason).message;
                if (done.error.empty())
                    routed = {job, g};
            } else if constexpr (std::is_same_v<T, UnrouteJob>) {
                done.action = "unroute job " + std::to_string(what.job) + " from group " + what.group;
                const auto [job, g] = job_in_group(what.job, what.group);
                if (!job)
                    return;
                std::vector<std::string> parts;
                for (const auto& p : job->partitions)
                    if (p != group_partition(*g))
                        parts.push_back(p);
                done.error = cycle_.actuator_.set_job_partitions(what.job, parts, action.reason).message;
            } else if constexpr (std::is_same_v<T, HireNodes>) {
                const NodeGroup* g = state.group(what.group);
                std::vector<std::string> picked;
                if (g)
                    picked = resumable_nodes(*g, what.count, state);
                done.action = "hire " + std::to_string(what.count) + " node(s) of " + what.group;
                if (picked.empty()) {
                    done.error = "no powered-down node of the group is free";
                    return;
                }
                done.action += ": power up " + compress_hostlist(picked);
                done.error = cycle_.actuator_.power(picked, PowerAction::Up, action.reason).message;
                if (done.error.empty()) {
                    cycle_.picked_.insert(cycle_.picked_.end(), picked.begin(), picked.end());
                    reflect_applied(action, state, picked);
                }
            } else if constexpr (std::is_same_v<T, ReleaseNodes>) {
                // A node a placeholder holds looks idle to the policies, but
                // stays up while the warm pool wants it: drained under a
                // placeholder that never ends, it would be neither warm nor
                // released.  The pool itself powers it down when it lets go.
                // So is one a pinned scavenger job is about to start on.
                std::vector<std::string> held = held_nodes(state);
                for (auto& n : cycle_.scavengers_.awaited_nodes(state))
                    held.push_back(std::move(n));
                std::vector<std::string> nodes;
                for (const auto& n : what.nodes)
                    if (std::find(held.begin(), held.end(), n) == held.end())
                        nodes.push_back(n);
                if (nodes.empty())
                    return;
                if (nodes.size() < what.nodes.size())
                    reflected = Action{ReleaseNodes{nodes, what.drain_first}, action.reason};
                done.action = std::string(what.drain_first ? "drain and power down " : "power down ") +
                              compress_hostlist(nodes);
                done.error = cycle_.actuator_
                                 .power(nodes, what.drain_first ? PowerAction::DownAsap : PowerAction::Down,
                                        action.reason)
                                 .message;
            } else if constexpr (std::is_same_v<T, SetJobThreads>) {
                done.action = "job " + std::to_string(what.job) + ": " + std::to_string(what.cpus_per_task) +
                              " cpus per task, " + std::to_string(what.cpus) + " cpus";
                const Job* job = find_job(what.job);
                if (!job || what.cpus_per_task == 0) {
                    done.error = "job is not in the snapshot";
                    return;
                }
                std::vector<Node> eligible;
                for (const auto& n : state.snapshot.nodes)
                    for (const auto& p : n.partitions)
                        if (job->may_run_in(p)) {
                            eligible.push_back(n);
                            break;
                        }
                try {
                    auto change = JobCpuChange::validated(*job, what.cpus / what.cpus_per_task, what.cpus_per_task,
                                                          eligible);
                    done.error = cycle_.actuator_.set_job_cpus(change, action.reason).message;
                } catch (const JobCpuChangeError& e) {
                    done.error = e.what();
                }
            } else if constexpr (std::is_same_v<T, KeepPlaceholders>) {
                const NodeGroup* g = state.group(what.group);
                const std::string kept = "keep " + std::to_string(what.count) + " node(s) of " + what.group + " on";
                if (!g) {
                    done.action = kept;
                    done.error = "unknown node group";
                    return;
                }
                const std::string did = cycle_.placeholders_.keep(*g, what.count, state, ctx.now, action.reason,
                                                                  done.error);
                if (!did.empty() || !done.error.empty()) // an unchanged pool is not news
                    done.action = kept + (did.empty() ? "" : ": " + did);
            }
        },
        action.what);
    if (done.action.empty())
        return "";
    std::string error = done.error;
    if (error.empty() && !std::holds_alternative<HireNodes>(action.what))
        reflect_applied(reflected ? *reflected : action, state);
    ++cycle_.stats_.actions[{action_kind(action), done.error.empty() ? "applied" : "failed"}];
    if (done.error.empty())
        ctx.log.info("decision: " + done.action + ": " + done.reason);
    else
        ctx.log.error("decision: " + done.action + " (" + done.reason + ") failed: " + done.error);
    cycle_.remember(std::move(done));
    if (routed.first) {
        if (cycle_.route_launcher_)
            cycle_.launch_for_route(*routed.first, *routed.second, state, ctx);
        if (cycle_.routed_)
            cycle_.routed_(routed.first->id);
    }
    return error;
}

void PolicyCycle::launch_for_route(const Job& job, const NodeGroup& group, ClusterState& state,
                                   const CycleContext& ctx)
{
    // A group that may not hire freely (backing off, protected...) launches only what Slurm asks for.
    if (std::find(hiring_.begin(), hiring_.end(), group.name) != hiring_.end() || group.cpus == 0 ||
        state.hire_limits.count(group.name))
        return;
    const std::uint64_t cpus = job.total_cpus();
    // Room on up or booting nodes of the group: Slurm puts the job there.
    std::uint64_t room = 0;
    for (const auto& n : state.snapshot.nodes)
        if (std::find(group.nodes.begin(), group.nodes.end(), n.name) != group.nodes.end() &&
            (n.usable() || n.has(kNodePoweringUp)) &&
            std::find(picked_.begin(), picked_.end(), n.name) == picked_.end())
            room += n.free_cpus();
    if (room >= cpus)
        return;
    std::size_t count = std::max<std::size_t>(job.node_count, (cpus + group.cpus - 1) / group.cpus);
    std::vector<std::string> nodes = resumable_nodes(group, count, state);
    if (nodes.size() < count)
        return; // Slurm cannot place it now either; ResumeProgram follows its allocation
    AppliedAction done;
    done.time = ctx.now;
    done.action = "launch " + compress_hostlist(nodes) + " for job " + std::to_string(job.id);
    done.reason = "the job was just made eligible for " + group.name +
                  ": its node boots while Slurm schedules it, not after";
    done.error = actuator_.power(nodes, PowerAction::Up, done.reason).message;
    if (done.error.empty()) {
        picked_.insert(picked_.end(), nodes.begin(), nodes.end());
        reflect_applied(Action{HireNodes{group.name, std::uint32_t(nodes.size())}, done.reason}, state, nodes);
        route_launcher_(nodes);
        ctx.log.info("decision: " + done.action + ": " + done.reason);
    } else {
        ctx.log.error("decision: " + done.action + " (" + done.reason + ") failed: " + done.error);
    }
    ++stats_.actions[{"launch", done.error.empty() ? "applied" : "failed"}];
    remember(std::move(done));
}

std::vector<std::string> PolicyCycle::chain_names() const
{
    std::vector<std::string> names;
    for (const auto& policy : cycle_.chain())
        names.emplace_back(policy->name());
    return names;
}

const SpendView& PolicyCycle::spend() const
{
    static const SpendView none;
    auto tracker = budget_spend_.trackers().find(spend_interval_);
    return tracker == budget_spend_.trackers().end() ? none : tracker->second.last();
}

void PolicyCycle::report(json_t* status, std::optional<double> objective_lambda) const
{
    JsonRef decisions(json_array());
    for (const auto& a : recent_) {
        json_t* o = json_pack("{s:f, s:s, s:s}", "time", double(a.time), "action", a.action.c_str(), "reason",
                              a.reason.c_str());
        if (!a.error.empty())
            json_object_set_new(o, "error", json_string(a.error.c_str()));
        json_array_append_new(decisions.get(), o);
    }
    json_object_set(status, "decisions", decisions.get());
    JsonRef notes(json_array());
    for (const auto& n : last_notes_)
        json_array_append_new(notes.get(), json_string(n.c_str()));
    json_object_set(status, "notes", notes.get());
    const ScalingBook::Summary scaling = cycle_.scaling().summary();
    JsonRef thread_scaling(json_pack("{s:I, s:I}", "categories", json_int_t(scaling.categories), "known",
                                     json_int_t(scaling.known)));
    if (const ThreadStage* threads = cycle_.threads()) {
        json_object_set_new(thread_scaling.get(), "policy", json_string(std::string(threads->name()).c_str()));
        JsonRef advice(json_object());
        std::size_t shown = 0;
        for (const auto& [category, count] : threads->advice())
            if (shown++ < kAdviceShown)
                json_object_set_new(advice.get(), category.c_str(), json_integer(count));
        json_object_set(thread_scaling.get(), "advice", advice.get());
        json_object_set_new(thread_scaling.get(), "advised_categories", json_integer(json_int_t(threads->advice().size())));
    }
    json_object_set(status, "thread_scaling", thread_scaling.get());

    // Cloud nodes by state, per group, as the last snapshot showed them: one
    // look-up per node, not a search of every group's Nodes= list.
    std::unordered_map<std::string_view, std::size_t> group_of;
    for (std::size_t g = 0; g < last_groups_.size(); ++g)
        for (const auto& name : last_groups_[g].nodes)
            group_of.emplace(name, g);
    std::vector<std::map<std::string, std::vector<std::string>>> states(last_groups_.size());
    for (const auto& n : last_nodes_)
        if (auto it = group_of.find(n.name); it != group_of.end())
            states[it->second][state_word(n)].push_back(n.name);
    JsonRef by_state(json_object());
    for (std::size_t g = 0; g < last_groups_.size(); ++g) {
        JsonRef group(json_object());
        for (const auto& [word, names] : states[g])
            json_object_set_new(group.get(), word.c_str(), json_string(compress_hostlist(names).c_str()));
        json_object_set(by_state.get(), last_groups_[g].name.c_str(), group.get());
    }
    json_object_set(status, "cloud_nodes", by_state.get());

    // The warm pool of each group with placeholders or a target, and the scavenger work on its nodes.
    JsonRef warm(json_object());
    for (const auto& [name, pool] : stats_.warm) {
        JsonRef group(json_pack("{s:I, s:I, s:I}", "placeholders_running", json_int_t(pool.placeholders_running),
                                "placeholders_queued", json_int_t(pool.placeholders_queued), "scavengers_running",
                                json_int_t(pool.scavengers_running)));
        if (pool.keep) {
            json_object_set_new(group.get(), "keep", json_integer(*pool.keep));
            json_object_set_new(group.get(), "reason", json_string(placeholders_.targets().at(name).reason.c_str()));
        }
        json_object_set(warm.get(), name.c_str(), group.get());
    }
    json_object_set(status, "warm", warm.get());

    // Each partition's cores kept for interactive jobs.
    JsonRef interactive(json_object());
    for (const auto& [name, p] : stats_.interactive)
        json_object_set_new(interactive.get(), name.c_str(),
                            json_pack("{s:I, s:I, s:I, s:I}", "keep", json_int_t(p.keep), "held",
                                      json_int_t(p.readiness.held), "queued", json_int_t(p.readiness.queued),
                                      "waiting", json_int_t(p.readiness.waiting)));
    json_object_set(status, "interactive", interactive.get());

    JsonRef instances(json_array());
    for (const auto& r : ledger_.open_records()) {
        json_array_append_new(instances.get(),
                              json_pack("{s:s, s:s, s:s, s:s, s:I, s:s, s:s}", "node", r.node.c_str(), "group",
                                        r.node_group.c_str(), "provider_id", r.provider_id.c_str(), "state",
                                        std::string(to_string(r.state)).c_str(), "requested_at",
                                        json_int_t(r.requested_at), "instance_type", r.instance_type.c_str(),
                                        "zone", r.zone.c_str()));
    }
    json_object_set(status, "instances", instances.get());
    json_object_set_new(status, "closed_instances", json_integer(json_int_t(ledger_.closed_count())));
    json_object_set_new(status, "provider_work_in_flight", json_integer(json_int_t(instances_.busy())));

    const SpendView& spend = this->spend();
    JsonRef by_group(json_object()), by_account(json_object());
    for (const auto& [g, amount] : spend.groups)
        json_object_set_new(by_group.get(), g.c_str(), json_real(amount));
    for (const auto& [account, amount] : spend.accounts)
        json_object_set_new(by_account.get(), account.c_str(), json_real(amount));
    json_t* s = json_pack("{s:f, s:f, s:f}", "interval_start", double(spend.interval_start), "interval",
                          double(spend.interval), "total", spend.total);
    json_object_set(s, "groups", by_group.get());
    json_object_set(s, "accounts", by_account.get());
    json_object_set_new(status, "spend", s);
    JsonRef budgets(json_array());
    for (const auto& b : last_budgets_) {
        json_t* o = json_pack("{s:s, s:s, s:f, s:f, s:f, s:f}", "account", b.account.c_str(), "budget",
                              b.limit.account.c_str(), "amount", b.limit.amount, "interval", double(b.limit.interval),
                              "spent", b.spent, "committed", b.committed);
        if (!b.unbounded.empty())
            json_object_set_new(o, "unbounded", json_string(b.unbounded.c_str()));
        json_array_append_new(budgets.get(), o);
    }
    json_object_set(status, "budgets", budgets.get());
    json_object_set_new(status, "run_metrics", run_metrics_json(run_metrics_, objective_lambda));
    json_object_set_new(status, "group_health", instances_.health().to_json(instances_.now()));
    JsonRef short_of(json_array());
    const Time now = instances_.now();
    for (const auto& v : instances_.placements().views(now))
        json_array_append_new(short_of.get(),
                              json_pack("{s:s, s:s, s:s, s:b, s:I, s:I, s:I}", "group", v.node_group.c_str(),
                                        "instance_type", v.instance_type.c_str(), "zone", v.zone.c_str(),
                                        "backing_off", int(v.backing_off), "retry_in",
                                        json_int_t(v.until > now ? v.until - now : 0), "cool_down",
                                        json_int_t(v.cool_down), "capacity_errors", json_int_t(v.shortages)));
    json_object_set(status, "placement_backoffs", short_of.get());
}

} // namespace burst

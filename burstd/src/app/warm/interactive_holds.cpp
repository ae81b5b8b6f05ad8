#include "app/warm/interactive_holds.hpp"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace burst {

namespace {

// The interactive jobs waiting in the partition that a free core would start.
std::vector<const Job*> waiting_interactive_jobs(const std::string& partition, const ClusterState& state,
                                                 const std::string& interactive_qos)
{
    std::vector<const Job*> jobs;
    if (interactive_qos.empty())
        return jobs;
    for (const auto& job : state.snapshot.jobs)
        if (job.pending() && !job.blocked() && job.qos == interactive_qos && job.may_run_in(partition))
            jobs.push_back(&job);
    return jobs;
}

// What a hold holds: one CPU, whatever a pending record without details says.
std::uint64_t hold_cpus(const Job& hold) { return std::max<std::uint32_t>(hold.cpus, 1); }

// The nodes of every node group, to look a node up by name in one step.
std::unordered_set<std::string> group_nodes(const ClusterState& state)
{
    std::unordered_set<std::string> nodes;
    for (const auto& g : state.groups)
        nodes.insert(g.nodes.begin(), g.nodes.end());
    return nodes;
}

const Partition* find_partition(const std::string& name, const ClusterState& state)
{
    for (const auto& p : state.snapshot.partitions)
        if (p.name == name)
            return &p;
    return nullptr;
}

// The CPUs of the partition's local nodes that are up: all, and free.
struct LocalCpus {
    std::uint64_t total = 0;
    std::uint64_t idle = 0;
};

LocalCpus local_cpus(const std::string& partition, const ClusterState& state)
{
    LocalCpus cpus;
    const Partition* p = find_partition(partition, state);
    if (!p)
        return cpus;
    const std::unordered_set<std::string> members(p->nodes.begin(), p->nodes.end());
    const std::unordered_set<std::string> cloud = group_nodes(state);
    for (const auto& n : state.snapshot.nodes)
        if (members.count(n.name) && n.usable() && !cloud.count(n.name)) {
            cpus.total += n.cpus;
            cpus.idle += n.cpus - std::min(n.cpus, n.alloc_cpus);
        }
    return cpus;
}

// Gives up running holds, newest first, until `wanted` CPUs are free
// beyond `freed`.
void give_up(const std::vector<const Job*>& running, std::uint64_t wanted, std::uint64_t freed,
             std::vector<JobId>& cancel)
{
    for (const Job* r : running) {
        if (freed >= wanted)
            break;
        cancel.push_back(r->id);
        freed += hold_cpus(*r);
    }
}

} // namespace

std::vector<const Job*> interactive_holds_of(const std::string& partition, const ClusterState& state,
                                             const std::vector<JobId>& cancelled)
{
    std::vector<const Job*> found;
    for (const auto& job : state.standby.interactive_holds)
        if (job.name == kInteractiveHoldName && job.may_run_in(partition) && (job.pending() || job.running()) &&
            job.state != JobState::Completing && !listed(cancelled, job.id))
            found.push_back(&job);
    return found;
}

InteractiveReadiness interactive_readiness(const std::string& partition, const ClusterState& state,
                                           const std::string& interactive_qos, const std::vector<JobId>& cancelled)
{
    InteractiveReadiness r;
    for (const Job* h : interactive_holds_of(partition, state, cancelled)) {
        if (h->pending())
            ++r.queued;
        else
            r.held += std::uint32_t(hold_cpus(*h));
    }
    std::uint64_t waiting = 0;
    for (const Job* j : waiting_interactive_jobs(partition, state, interactive_qos))
        waiting += j->total_cpus();
    r.waiting = std::uint32_t(std::min<std::uint64_t>(waiting, UINT32_MAX));
    return r;
}

InteractiveHoldPlan plan_interactive_holds(const InteractiveReserve& reserve, const ClusterState& state,
                                           const std::string& interactive_qos, std::uint32_t in_flight,
                                           const std::vector<JobId>& cancelled, const std::set<JobId>& served)
{
    InteractiveHoldPlan plan;
    std::vector<const Job*> running, queued;
    for (const Job* h : interactive_holds_of(reserve.partition, state, cancelled))
        (h->pending() ? queued : running).push_back(h);
    // The newest go first: the last asked for, and holds that came after
    // real work had its cores.
    const auto newest_first = [](const Job* a, const Job* b) { return a->id > b->id; };
    std::sort(running.begin(), running.end(), newest_first);
    std::sort(queued.begin(), queued.end(), newest_first);

    if (const auto waiting = waiting_interactive_jobs(reserve.partition, state, interactive_qos); !waiting.empty()) {
        // A queued hold would take the next free core before the jobs.  For
        // each job not served before, running holds Slurm did not preempt
        // are given up for its cores, beyond the idle ones and those of
        // holds ending already (preempted, suspended or cancelled); once: a
        // job that still waits then waits for something else.
        plan.why = "interactive jobs wait there";
        for (const Job* q : queued)
            plan.cancel.push_back(q->id);
        std::uint64_t wanted = 0;
        for (const Job* j : waiting)
            if (!served.count(j->id)) {
                wanted += j->total_cpus();
                plan.served.push_back(j->id);
            }
        std::uint64_t freed = local_cpus(reserve.partition, state).idle;
        for (const auto& h : state.standby.interactive_holds)
            if (h.name == kInteractiveHoldName && h.may_run_in(reserve.partition) && !h.pending() &&
                (h.state != JobState::Running || listed(cancelled, h.id)))
                freed += hold_cpus(h);
        give_up(running, wanted, freed, plan.cancel);
        return plan;
    }
    // The first batch job in line, if too wide to start beside the reserve,
    // would wait for ever: the running holds it needs are given up (Slurm
    // keeps cores coming free for the first job in line), no hold is queued
    // while it waits, and they come back as cores come free after it started.
    std::uint64_t held = 0;
    for (const Job* r : running)
        held += hold_cpus(*r);
    const Job* first = nullptr;
    for (const auto& job : state.snapshot.jobs)
        if (job.pending() && !job.blocked() && job.qos != interactive_qos && job.may_run_in(reserve.partition) &&
            (!first || job.priority > first->priority))
            first = &job;
    const LocalCpus local = local_cpus(reserve.partition, state);
    if (first && first->cpus <= local.total &&
        first->cpus + std::max<std::uint64_t>(held, reserve.cores) > local.total) {
        plan.why = "job " + std::to_string(first->id) + ", first in line, needs the held cores too";
        for (const Job* q : queued)
            plan.cancel.push_back(q->id);
        give_up(running, first->cpus + held > local.total ? first->cpus + held - local.total : 0, 0, plan.cancel);
        return plan;
    }
    // A hold near its time limit is replaced ahead of time: the queued one
    // takes its core when it ends, before any batch job can.  One well past
    // it (Slurm not enforcing limits) is cancelled, its replacement there.
    std::vector<const Job*> lasting;
    for (const Job* r : running) {
        const bool limited = r->time_limit > 0;
        if (limited && r->start_time + r->time_limit + kHoldRenewalLead <= state.snapshot.time)
            plan.cancel.push_back(r->id);
        else if (!limited || r->start_time + r->time_limit > state.snapshot.time + kHoldRenewalLead)
            lasting.push_back(r);
    }
    std::uint64_t have = in_flight;
    for (const auto* list : {&lasting, &queued})
        for (const Job* h : *list)
            have += hold_cpus(*h);
    if (have < reserve.cores) {
        plan.submit = std::uint32_t(reserve.cores - have);
        return plan;
    }
    std::uint64_t excess = have - reserve.cores;
    for (const auto* list : {&queued, &lasting})
        for (const Job* h : *list)
            if (excess >= hold_cpus(*h)) {
                plan.cancel.push_back(h->id);
                excess -= hold_cpus(*h);
            }
    return plan;
}

std::string InteractiveHolds::apply(const InteractiveHoldPlan& plan, const std::string& partition,
                                    const std::string& hold_qos, const ClusterState& state, Time now,
                                    std::string_view reason, std::string& error)
{
    std::vector<JobId> cancelled;
    for (JobId id : plan.cancel) {
        if (ActuatorError e = actuator_.cancel_job(id, reason)) {
            error = e.message;
            break;
        }
        settling_.cancelled(id, now);
        cancelled.push_back(id);
    }
    std::uint32_t submitted = 0;
    if (error.empty() && plan.submit > 0) {
        PlaceholderJob hold{partition, hold_qos, kInteractiveHoldName, 1, {}};
        if (const Partition* p = find_partition(partition, state)) {
            const std::unordered_set<std::string> cloud = group_nodes(state);
            for (const auto& node : p->nodes)
                if (cloud.count(node))
                    hold.excluded_nodes.push_back(node);
        }
        for (std::uint32_t i = 0; i < plan.submit; ++i) {
            JobId id = 0;
            if (ActuatorError e = actuator_.submit_placeholder(hold, reason, id)) {
                error = e.message;
                break;
            }
            settling_.submitted(id, partition, now);
            ++submitted;
        }
    }
    std::string text;
    if (!cancelled.empty())
        text = "cancel interactive hold(s) " + ids_text(cancelled);
    if (submitted)
        text += (text.empty() ? "" : ", ") + std::string("submit ") + std::to_string(submitted) +
                " interactive hold(s)";
    return text;
}

std::vector<std::string> InteractiveHolds::keep(const Settings& settings, const ClusterState& state, Time now,
                                                std::vector<std::string>& errors)
{
    std::unordered_set<JobId> shown;
    std::set<std::string> partitions; // those holds of burstd run or wait in
    for (const auto& h : state.standby.interactive_holds) {
        shown.insert(h.id);
        if (h.name == kInteractiveHoldName)
            partitions.insert(h.partitions.begin(), h.partitions.end());
    }
    settling_.settle(shown, state.snapshot.time);
    std::unordered_set<JobId> pending;
    for (const auto& job : state.snapshot.jobs)
        if (job.pending())
            pending.insert(job.id);
    for (auto it = served_.begin(); it != served_.end();)
        it = pending.count(*it) ? std::next(it) : served_.erase(it);

    std::vector<std::string> done;
    const auto act = [&](const InteractiveReserve& reserve, const std::string& reason) {
        const InteractiveHoldPlan plan =
            plan_interactive_holds(reserve, state, settings.interactive_qos, settling_.in_flight(reserve.partition),
                                   settling_.cancelled_ids(), served_);
        served_.insert(plan.served.begin(), plan.served.end());
        std::string error;
        const std::string why = plan.why.empty() ? reason : plan.why;
        const std::string did = apply(plan, reserve.partition, settings.hold_qos, state, now, why, error);
        if (!did.empty())
            done.push_back(did + " in " + reserve.partition + ": " + why);
        if (!error.empty())
            errors.push_back("keep " + std::to_string(reserve.cores) + " core(s) of " + reserve.partition +
                             " for interactive jobs" + (did.empty() ? "" : " (" + did + ")") + ": " + error);
    };
    const std::unordered_set<std::string> cloud = group_nodes(state);
    for (const auto& reserve : settings.reserves) {
        const Partition* p = find_partition(reserve.partition, state);
        if (!p) {
            errors.push_back("Interactive=: Slurm has no partition " + reserve.partition +
                             ", so no core of it is kept for interactive jobs");
            continue;
        }
        if (std::all_of(p->nodes.begin(), p->nodes.end(), [&](const std::string& n) { return cloud.count(n) != 0; })) {
            errors.push_back("Interactive=: partition " + reserve.partition +
                             " has no local node (holds never run on node groups' nodes), so no core of it is "
                             "kept for interactive jobs");
            continue;
        }
        partitions.erase(reserve.partition);
        act(reserve, "Interactive= keeps " + std::to_string(reserve.cores) + " core(s) there");
    }
    for (const auto& partition : partitions)
        act(InteractiveReserve{partition, 0}, "Interactive= no longer names the partition");
    return done;
}

} // namespace burst

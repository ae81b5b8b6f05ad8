#include "app/warm/placeholder_pool.hpp"

#include "model/hostlist.hpp"
#include "policy/site/site_view.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace burst {

namespace {

// What holds one warm node of the group: a running placeholder, or the
// scavenger jobs running alone on it.
struct Holder {
    const Job* placeholder = nullptr;
    std::vector<JobId> scavengers;
    std::vector<std::string> nodes;
    bool up = false;
    bool stuck = false;  // a scavenger job on it Slurm would not requeue: it stays held
    bool pinned = false; // scavenger work burstd put there in a placeholder's place

    JobId first_id() const { return placeholder ? placeholder->id : scavengers.front(); }
    std::vector<JobId> ids() const { return placeholder ? std::vector<JobId>{placeholder->id} : scavengers; }
};

// The group's holders still standing: those that can be given up first
// (stuck ones last), those on nodes that are up first, placeholders before
// scavenger work, then by age; queued placeholders newest first (the last
// asked for go first).
struct Standing {
    std::vector<Holder> running;
    std::size_t givable = 0; // the first ones of `running`
    std::vector<const Job*> queued;
};

Standing standing(const NodeGroup& group, const ClusterState& state, const std::vector<JobId>& cancelled,
                  const std::vector<JobId>& not_requeueable, const std::vector<JobId>& pinned)
{
    std::unordered_map<std::string, const Node*> nodes;
    for (const auto& n : state.snapshot.nodes)
        nodes.emplace(n.name, &n);
    const auto usable = [&](const std::string& name) {
        auto n = nodes.find(name);
        return n != nodes.end() && n->second->usable();
    };
    Standing s;
    for (const Job* p : placeholders_of(group, state)) {
        if (listed(cancelled, p->id) || p->state == JobState::Completing)
            continue;
        if (p->pending()) {
            s.queued.push_back(p);
            continue;
        }
        Holder h;
        h.placeholder = p;
        h.nodes = p->nodes;
        h.up = std::all_of(p->nodes.begin(), p->nodes.end(), usable);
        s.running.push_back(std::move(h));
    }
    std::map<std::string, Holder> by_node;
    for (const Job* j : scavengers_holding(group, state))
        if (!listed(cancelled, j->id)) {
            Holder& h = by_node[j->nodes.front()];
            h.pinned = (h.scavengers.empty() || h.pinned) && listed(pinned, j->id);
            h.scavengers.push_back(j->id);
            h.nodes = j->nodes;
            h.up = true;
            h.stuck = h.stuck || listed(not_requeueable, j->id);
        }
    for (auto& [node, h] : by_node)
        s.running.push_back(std::move(h));
    std::sort(s.running.begin(), s.running.end(), [&](const Holder& a, const Holder& b) {
        if (a.stuck != b.stuck)
            return b.stuck;
        if (a.up != b.up)
            return a.up;
        if ((a.placeholder != nullptr) != (b.placeholder != nullptr))
            return a.placeholder != nullptr;
        return a.first_id() < b.first_id();
    });
    s.givable = std::size_t(std::count_if(s.running.begin(), s.running.end(), [](const Holder& h) { return !h.stuck; }));
    std::sort(s.queued.begin(), s.queued.end(), [](const Job* a, const Job* b) { return a->id > b->id; });
    return s;
}

// Of the group's powered-on nodes: those real work holds, and those up,
// idle and held by nothing (Slurm starts a waiting job there anyway).
struct GroupNodes {
    std::uint32_t busy = 0;
    std::uint32_t idle_free = 0;
};

GroupNodes group_nodes(const NodeGroup& group, const ClusterState& state, const Standing& standing)
{
    const std::unordered_set<std::string> members(group.nodes.begin(), group.nodes.end());
    std::unordered_set<std::string> held;
    for (const Holder& h : standing.running)
        held.insert(h.nodes.begin(), h.nodes.end());
    GroupNodes out;
    for (const auto& n : state.snapshot.nodes) {
        if (!members.count(n.name) || n.has(kNodePoweredDown) || n.has(kNodePoweringDown))
            continue;
        if (n.alloc_cpus > 0)
            ++out.busy;
        else if (n.usable() && !held.count(n.name))
            ++out.idle_free;
    }
    return out;
}

} // namespace

std::vector<const Job*> placeholders_of(const NodeGroup& group, const ClusterState& state)
{
    std::vector<const Job*> found;
    for (const auto& job : state.standby.placeholders)
        if (job.name == kPlaceholderName && job.may_run_in(group_partition(group)))
            found.push_back(&job);
    return found;
}

std::vector<const Job*> scavengers_holding(const NodeGroup& group, const ClusterState& state)
{
    const std::unordered_set<std::string> members(group.nodes.begin(), group.nodes.end());
    std::unordered_set<std::string> up; // the group's nodes that are up and take work
    for (const auto& n : state.snapshot.nodes)
        if (members.count(n.name) && n.usable())
            up.insert(n.name);
    // A node any other job runs on is up for that job.  Read from the jobs'
    // node lists, not from the node's allocated CPUs: those are the
    // exporter's count less what set-aside jobs were given back.
    std::unordered_set<std::string> in_use;
    for (const auto* jobs : {&state.snapshot.jobs, &state.standby.placeholders, &state.standby.interactive_holds})
        for (const auto& job : *jobs)
            if (job.running() || job.state == JobState::Suspended)
                in_use.insert(job.nodes.begin(), job.nodes.end());
    for (const auto& job : state.standby.scavengers)
        if (job.nodes.size() > 1)
            in_use.insert(job.nodes.begin(), job.nodes.end());
    std::vector<const Job*> found;
    for (const auto& job : state.standby.scavengers)
        if (job.state == JobState::Running && job.nodes.size() == 1 && up.count(job.nodes.front()) &&
            !in_use.count(job.nodes.front()))
            found.push_back(&job);
    return found;
}

std::vector<std::string> held_nodes(const ClusterState& state)
{
    std::vector<std::string> nodes;
    for (const auto& job : state.standby.placeholders)
        if (job.name == kPlaceholderName && job.running())
            nodes.insert(nodes.end(), job.nodes.begin(), job.nodes.end());
    for (const auto& g : state.groups)
        for (const Job* job : scavengers_holding(g, state))
            nodes.push_back(job->nodes.front());
    return nodes;
}

std::uint32_t nodes_waited_for(const NodeGroup& group, const ClusterState& state)
{
    std::uint64_t nodes = 0, narrow_cpus = 0;
    for (const auto& job : state.snapshot.jobs) {
        if (!job.pending() || job.blocked() || !job.may_run_in(group_partition(group)))
            continue;
        if (job.node_count > 1 || group.cpus == 0)
            nodes += std::uint64_t(job.node_count) * job.array_task_count;
        else
            narrow_cpus += job.total_cpus();
    }
    if (group.cpus > 0)
        nodes += (narrow_cpus + group.cpus - 1) / group.cpus;
    return std::uint32_t(std::min<std::uint64_t>(nodes, UINT32_MAX));
}

PlaceholderPlan plan_placeholders(const NodeGroup& group, std::uint32_t keep, const ClusterState& state,
                                  std::uint32_t in_flight, const std::vector<JobId>& cancelled,
                                  const std::vector<JobId>& not_requeueable, const std::vector<JobId>& pinned)
{
    PlaceholderPlan plan;
    const Standing s = standing(group, state, cancelled, not_requeueable, pinned);
    const GroupNodes nodes = group_nodes(group, state, s);
    const std::uint32_t waiting = nodes_waited_for(group, state);
    // Real work first: what waits beyond the idle nodes takes held ones.
    const std::uint32_t wanted_by_real = waiting > nodes.idle_free ? waiting - nodes.idle_free : 0;
    const std::size_t freed = std::min<std::size_t>(s.givable, wanted_by_real);
    for (std::size_t i = 0; i < freed; ++i)
        for (JobId id : s.running[i].ids())
            plan.cancel.push_back(id);
    const std::uint64_t real = std::uint64_t(nodes.busy) + waiting;
    const std::uint64_t target = keep > real ? keep - real : 0;
    const std::uint64_t have = (s.running.size() - freed) + s.queued.size() + in_flight;
    if (have < target) {
        plan.submit = std::uint32_t(target - have);
        return plan;
    }
    std::uint64_t excess = have - target;
    for (const Job* q : s.queued)
        if (excess > 0) {
            plan.cancel.push_back(q->id);
            --excess;
        }
    // Placeholders go before scavenger work, which would lose what it has
    // done.  A placeholder's node is powered down, and so is the node of
    // scavenger work burstd put there; one Slurm started there is left to
    // idle as any node would (SuspendTime, the hiring policies' release).
    for (const bool placeholders : {true, false})
        for (std::size_t i = s.givable; i > freed && excess > 0; --i) {
            const Holder& h = s.running[i - 1];
            if ((h.placeholder != nullptr) != placeholders)
                continue;
            for (JobId id : h.ids())
                plan.cancel.push_back(id);
            if (h.placeholder || h.pinned)
                plan.power_down.insert(plan.power_down.end(), h.nodes.begin(), h.nodes.end());
            --excess;
        }
    return plan;
}

std::vector<JobId> placeholders_to_free(std::uint32_t nodes, const NodeGroup& group, const ClusterState& state,
                                        const std::vector<JobId>& cancelled, const std::vector<JobId>& not_requeueable)
{
    const Standing s = standing(group, state, cancelled, not_requeueable, {});
    const GroupNodes free = group_nodes(group, state, s);
    const std::uint32_t wanted = nodes > free.idle_free ? nodes - free.idle_free : 0;
    std::vector<JobId> ids;
    for (std::size_t i = 0; i < s.givable && i < wanted; ++i)
        for (JobId id : s.running[i].ids())
            ids.push_back(id);
    return ids;
}

void PlaceholderPool::set_qos(const std::string& qos)
{
    if (!qos.empty())
        qos_ = qos;
}

void PlaceholderPool::forget_settled(const ClusterState& state)
{
    std::unordered_set<JobId> shown;
    for (const auto& p : state.standby.placeholders)
        shown.insert(p.id);
    std::unordered_set<JobId> running_scavengers;
    for (const auto& s : state.standby.scavengers)
        if (s.running()) // requeued: waiting again
            running_scavengers.insert(s.id);
    shown.insert(running_scavengers.begin(), running_scavengers.end());
    for (auto it = not_requeueable_.begin(); it != not_requeueable_.end();)
        it = running_scavengers.count(*it) ? std::next(it) : not_requeueable_.erase(it);
    settling_.settle(shown, state.snapshot.time);
}

std::vector<JobId> PlaceholderPool::not_requeueable() const
{
    return std::vector<JobId>(not_requeueable_.begin(), not_requeueable_.end());
}

std::string PlaceholderPool::give_up(const std::vector<JobId>& ids, const ClusterState& state, Time now,
                                     std::string_view reason, std::string& error)
{
    std::vector<JobId> cancelled, requeued, unrequeueable;
    for (JobId id : ids) {
        const bool scavenger = std::any_of(state.standby.scavengers.begin(), state.standby.scavengers.end(),
                                           [&](const Job& j) { return j.id == id; });
        if (scavenger) {
            // Slurm never requeues a job submitted with --no-requeue, one
            // srun started, or any where JobRequeue=0.  One that Slurm
            // started there holds its node until it ends, as before, and is
            // not asked again; one burstd put there is cancelled, as
            // preemption (PreemptMode=REQUEUE) cancels such jobs.  Any
            // other refusal (Slurm preempted it already, a timeout) is
            // tried again next cycle.
            if (ActuatorError e = actuator_.requeue_job(id, reason)) {
                const std::string sep = error.empty() ? "" : "; ";
                if (e.never_requeueable && listed(pinned_.jobs, id)) {
                    if (ActuatorError c = actuator_.cancel_job(id, reason)) {
                        error += sep + e.message + "; " + c.message;
                        continue;
                    }
                    unrequeueable.push_back(id);
                    settling_.cancelled(id, now);
                    continue;
                }
                if (e.never_requeueable)
                    not_requeueable_.insert(id);
                error += sep + e.message + (e.never_requeueable ? " (left to run)" : "");
                continue;
            }
            requeued.push_back(id);
        } else {
            if (ActuatorError e = actuator_.cancel_job(id, reason)) {
                error += (error.empty() ? "" : "; ") + e.message;
                placeholder_refused_ = true;
                break;
            }
            cancelled.push_back(id);
        }
        settling_.cancelled(id, now);
    }
    std::string text = cancelled.empty() ? "" : "cancel placeholder job(s) " + ids_text(cancelled);
    if (!requeued.empty())
        text += (text.empty() ? "" : ", ") + std::string("requeue scavenger job(s) ") + ids_text(requeued);
    if (!unrequeueable.empty())
        text += (text.empty() ? "" : ", ") + std::string("cancel scavenger job(s) ") + ids_text(unrequeueable) +
                " (Slurm would not requeue them)";
    return text;
}

std::string PlaceholderPool::keep(const NodeGroup& group, std::uint32_t keep, const ClusterState& state, Time now,
                                  std::string_view reason, std::string& error)
{
    targets_[group.name] = Target{keep, std::string(reason)};
    forget_settled(state);
    const auto waiting = pinned_.waiting.find(group.name);
    const std::uint32_t in_flight =
        settling_.in_flight(group.name) + (waiting == pinned_.waiting.end() ? 0 : waiting->second);
    const PlaceholderPlan plan = plan_placeholders(group, keep, state, in_flight, settling_.cancelled_ids(),
                                                   not_requeueable(), pinned_.jobs);
    std::vector<std::string> done;
    placeholder_refused_ = false;
    if (std::string cancelled = give_up(plan.cancel, state, now, reason, error); !cancelled.empty())
        done.push_back(cancelled);
    // After a refused cancellation the placeholders after it still run.  A
    // scavenger job Slurm would not requeue stops nothing: its node stays
    // held, and the plan already counts it so.  Only nodes whose every
    // holder went are powered down.
    bool failed = placeholder_refused_;
    std::vector<std::string> power_down;
    for (const auto& node : plan.power_down) {
        bool left = false;
        for (const auto* jobs : {&state.standby.placeholders, &state.standby.scavengers})
            for (const auto& job : *jobs)
                left = left || (job.running() && !settling_.is_cancelled(job.id) &&
                                std::find(job.nodes.begin(), job.nodes.end(), node) != job.nodes.end());
        if (!left)
            power_down.push_back(node);
    }
    if (!failed && !power_down.empty()) {
        if (ActuatorError e = actuator_.power(power_down, PowerAction::Down, reason)) {
            error += (error.empty() ? "" : "; ") + e.message;
            failed = true;
        } else {
            done.push_back("power down " + compress_hostlist(power_down));
        }
    }
    std::uint32_t submitted = 0;
    for (std::uint32_t i = 0; !failed && i < plan.submit; ++i) {
        JobId id = 0;
        if (ActuatorError e = actuator_.submit_placeholder(PlaceholderJob{group_partition(group), qos_, kPlaceholderName, 0, {}},
                                                          reason, id)) {
            error += (error.empty() ? "" : "; ") + e.message;
            break;
        }
        settling_.submitted(id, group.name, now);
        ++submitted;
    }
    if (submitted)
        done.push_back("submit " + std::to_string(submitted) + " placeholder job(s)");
    std::string text;
    for (const auto& d : done)
        text += (text.empty() ? "" : ", ") + d;
    return text;
}

std::string PlaceholderPool::hand_over(const Job& placeholder, JobId taker, Time now, std::string& error)
{
    if (ActuatorError e = actuator_.cancel_job(placeholder.id, "scavenger job " + std::to_string(taker) +
                                                                   " takes its warm node")) {
        error += (error.empty() ? "" : "; ") + e.message;
        return "";
    }
    settling_.cancelled(placeholder.id, now);
    return "cancel placeholder job " + std::to_string(placeholder.id);
}

std::string PlaceholderPool::free_for_waiting(const NodeGroup& group, const ClusterState& state, Time now,
                                              std::string& error)
{
    forget_settled(state);
    const std::uint32_t waiting = nodes_waited_for(group, state);
    if (waiting == 0)
        return "";
    return give_up(placeholders_to_free(waiting, group, state, settling_.cancelled_ids(), not_requeueable()), state, now,
                  "real jobs wait in " + group_partition(group), error);
}

std::string PlaceholderPool::make_room(const Job& job, const NodeGroup& group, const ClusterState& state, Time now,
                                       std::string& error)
{
    forget_settled(state);
    const std::uint32_t nodes = job.node_count > 1 || group.cpus == 0
                                    ? job.node_count
                                    : std::uint32_t((job.cpus + group.cpus - 1) / group.cpus);
    const std::string done = give_up(placeholders_to_free(nodes, group, state, settling_.cancelled_ids(), not_requeueable()),
                                     state, now,
                                    "job " + std::to_string(job.id) + " takes its warm node", error);
    return done.empty() ? "" : done + " for job " + std::to_string(job.id);
}

} // namespace burst

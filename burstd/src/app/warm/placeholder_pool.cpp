#include "app/warm/placeholder_pool.hpp"

#include "model/hostlist.hpp"
#include "policy/site/site_view.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace burst {

namespace {

// The group's placeholders still standing: running ones, those on nodes
// that are up first, then by age; queued ones newest first (the last asked
// for go first).
struct Standing {
    std::vector<const Job*> running;
    std::vector<const Job*> queued;
};

Standing standing(const NodeGroup& group, const ClusterState& state, const std::vector<JobId>& cancelled)
{
    std::unordered_map<std::string, const Node*> nodes;
    for (const auto& n : state.snapshot.nodes)
        nodes.emplace(n.name, &n);
    const auto up = [&](const Job* p) {
        return std::all_of(p->nodes.begin(), p->nodes.end(), [&](const std::string& name) {
            auto n = nodes.find(name);
            return n != nodes.end() && n->second->usable();
        });
    };
    Standing s;
    for (const Job* p : placeholders_of(group, state)) {
        if (listed(cancelled, p->id) || p->state == JobState::Completing)
            continue;
        (p->pending() ? s.queued : s.running).push_back(p);
    }
    for (const Job* j : scavengers_holding(group, state))
        if (!listed(cancelled, j->id))
            s.running.push_back(j);
    std::sort(s.running.begin(), s.running.end(), [&](const Job* a, const Job* b) {
        const bool a_up = up(a), b_up = up(b);
        return a_up != b_up ? a_up : a->id < b->id;
    });
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
    for (const Job* p : standing.running)
        held.insert(p->nodes.begin(), p->nodes.end());
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
    std::unordered_map<std::string, const Node*> alone; // the group's nodes no real job runs on
    for (const auto& n : state.snapshot.nodes)
        if (members.count(n.name) && n.alloc_cpus == 0)
            alone.emplace(n.name, &n);
    std::vector<const Job*> found;
    for (const auto& job : state.standby.scavengers)
        if (job.state == JobState::Running && !job.nodes.empty() &&
            std::all_of(job.nodes.begin(), job.nodes.end(), [&](const std::string& n) { return alone.count(n) > 0; }))
            found.push_back(&job);
    return found;
}

std::vector<std::string> held_nodes(const ClusterState& state)
{
    std::vector<std::string> nodes;
    for (const auto& job : state.standby.placeholders)
        if (job.name == kPlaceholderName && job.running())
            nodes.insert(nodes.end(), job.nodes.begin(), job.nodes.end());
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
                                  std::uint32_t in_flight, const std::vector<JobId>& cancelled)
{
    PlaceholderPlan plan;
    const Standing s = standing(group, state, cancelled);
    const GroupNodes nodes = group_nodes(group, state, s);
    const std::uint32_t waiting = nodes_waited_for(group, state);
    // Real work first: what waits beyond the idle nodes takes held ones.
    const std::uint32_t wanted_by_real = waiting > nodes.idle_free ? waiting - nodes.idle_free : 0;
    const std::size_t freed = std::min<std::size_t>(s.running.size(), wanted_by_real);
    for (std::size_t i = 0; i < freed; ++i)
        plan.cancel.push_back(s.running[i]->id);
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
    for (std::size_t i = s.running.size(); i > freed && excess > 0; --i, --excess) {
        const Job* r = s.running[i - 1];
        plan.cancel.push_back(r->id);
        plan.power_down.insert(plan.power_down.end(), r->nodes.begin(), r->nodes.end());
    }
    return plan;
}

std::vector<JobId> placeholders_to_free(std::uint32_t nodes, const NodeGroup& group, const ClusterState& state,
                                        const std::vector<JobId>& cancelled)
{
    const Standing s = standing(group, state, cancelled);
    const GroupNodes free = group_nodes(group, state, s);
    const std::uint32_t wanted = nodes > free.idle_free ? nodes - free.idle_free : 0;
    std::vector<JobId> ids;
    for (std::size_t i = 0; i < s.running.size() && ids.size() < wanted; ++i)
        ids.push_back(s.running[i]->id);
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
    for (const auto& s : state.standby.scavengers)
        if (s.running()) // requeued: waiting again
            shown.insert(s.id);
    settling_.settle(shown, state.snapshot.time);
}

std::string PlaceholderPool::give_up(const std::vector<JobId>& ids, const ClusterState& state, Time now,
                                     std::string_view reason, std::string& error)
{
    std::vector<JobId> cancelled, requeued;
    for (JobId id : ids) {
        const bool scavenger = std::any_of(state.standby.scavengers.begin(), state.standby.scavengers.end(),
                                           [&](const Job& j) { return j.id == id; });
        if (ActuatorError e = scavenger ? actuator_.requeue_job(id, reason) : actuator_.cancel_job(id, reason)) {
            error = e.message;
            break;
        }
        settling_.cancelled(id, now);
        (scavenger ? requeued : cancelled).push_back(id);
    }
    std::string text = cancelled.empty() ? "" : "cancel placeholder job(s) " + ids_text(cancelled);
    if (!requeued.empty())
        text += (text.empty() ? "" : ", ") + std::string("requeue scavenger job(s) ") + ids_text(requeued);
    return text;
}

std::string PlaceholderPool::keep(const NodeGroup& group, std::uint32_t keep, const ClusterState& state, Time now,
                                  std::string_view reason, std::string& error)
{
    targets_[group.name] = Target{keep, std::string(reason)};
    forget_settled(state);
    const PlaceholderPlan plan =
        plan_placeholders(group, keep, state, settling_.in_flight(group.name), settling_.cancelled_ids());
    std::vector<std::string> done;
    if (std::string cancelled = give_up(plan.cancel, state, now, reason, error); !cancelled.empty())
        done.push_back(cancelled);
    if (error.empty() && !plan.power_down.empty()) {
        if (ActuatorError e = actuator_.power(plan.power_down, PowerAction::Down, reason))
            error = e.message;
        else
            done.push_back("power down " + compress_hostlist(plan.power_down));
    }
    std::uint32_t submitted = 0;
    for (std::uint32_t i = 0; error.empty() && i < plan.submit; ++i) {
        JobId id = 0;
        if (ActuatorError e = actuator_.submit_placeholder(PlaceholderJob{group_partition(group), qos_, kPlaceholderName, 0, {}},
                                                          reason, id)) {
            error = e.message;
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

std::string PlaceholderPool::free_for_waiting(const NodeGroup& group, const ClusterState& state, Time now,
                                              std::string& error)
{
    forget_settled(state);
    const std::uint32_t waiting = nodes_waited_for(group, state);
    if (waiting == 0)
        return "";
    return give_up(placeholders_to_free(waiting, group, state, settling_.cancelled_ids()), state, now,
                  "real jobs wait in " + group_partition(group), error);
}

std::string PlaceholderPool::make_room(const Job& job, const NodeGroup& group, const ClusterState& state, Time now,
                                       std::string& error)
{
    forget_settled(state);
    const std::uint32_t nodes = job.node_count > 1 || group.cpus == 0
                                    ? job.node_count
                                    : std::uint32_t((job.cpus + group.cpus - 1) / group.cpus);
    const std::string done = give_up(placeholders_to_free(nodes, group, state, settling_.cancelled_ids()), state, now,
                                    "job " + std::to_string(job.id) + " takes its warm node", error);
    return done.empty() ? "" : done + " for job " + std::to_string(job.id);
}

} // namespace burst

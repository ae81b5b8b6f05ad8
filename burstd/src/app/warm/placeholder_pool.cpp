#include "app/warm/placeholder_pool.hpp"

#include "model/hostlist.hpp"
#include "policy/site/site_view.hpp"

#include <algorithm>
#include <unordered_set>

namespace burst {

namespace {

bool listed(const std::vector<JobId>& ids, JobId id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); }

bool in_partition(const Job& job, const std::string& partition)
{
    return std::find(job.partitions.begin(), job.partitions.end(), partition) != job.partitions.end();
}

// The group's placeholders still standing, running ones first (oldest
// first), then queued ones (newest first: the last asked for go first).
struct Standing {
    std::vector<const Job*> running;
    std::vector<const Job*> queued;
};

Standing standing(const NodeGroup& group, const ClusterState& state, const std::vector<JobId>& cancelled)
{
    Standing s;
    for (const Job* p : placeholders_of(group, state)) {
        if (listed(cancelled, p->id) || p->state == JobState::Completing)
            continue;
        (p->pending() ? s.queued : s.running).push_back(p);
    }
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

// Nodes the group's real jobs wait for now (not held back by a dependency,
// a hold or a limit).
std::uint32_t waiting_nodes(const NodeGroup& group, const ClusterState& state)
{
    std::uint32_t nodes = 0;
    for (const auto& job : state.snapshot.jobs)
        if (job.pending() && !job.blocked() && in_partition(job, group_partition(group)))
            nodes += job.node_count * job.array_task_count;
    return nodes;
}

} // namespace

std::vector<const Job*> placeholders_of(const NodeGroup& group, const ClusterState& state)
{
    std::vector<const Job*> found;
    for (const auto& job : state.standby.placeholders)
        if (job.name == kPlaceholderName && in_partition(job, group_partition(group)))
            found.push_back(&job);
    return found;
}

PlaceholderPlan plan_placeholders(const NodeGroup& group, std::uint32_t keep, const ClusterState& state,
                                  std::uint32_t in_flight, const std::vector<JobId>& cancelled)
{
    PlaceholderPlan plan;
    const Standing s = standing(group, state, cancelled);
    const GroupNodes nodes = group_nodes(group, state, s);
    const std::uint32_t waiting = waiting_nodes(group, state);
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

std::vector<JobId> placeholders_to_free(const Job& job, const NodeGroup& group, const ClusterState& state,
                                        const std::vector<JobId>& cancelled)
{
    const Standing s = standing(group, state, cancelled);
    const GroupNodes nodes = group_nodes(group, state, s);
    const std::uint32_t wanted = job.node_count > nodes.idle_free ? job.node_count - nodes.idle_free : 0;
    std::vector<JobId> ids;
    for (std::size_t i = 0; i < s.running.size() && ids.size() < wanted; ++i)
        ids.push_back(s.running[i]->id);
    return ids;
}

void PlaceholderPool::forget_settled(const ClusterState& state, Time now)
{
    std::unordered_set<JobId> shown;
    for (const auto& p : state.standby.placeholders)
        shown.insert(p.id);
    for (auto it = submitted_.begin(); it != submitted_.end();)
        it = shown.count(it->first) || now - it->second.second > kRemembered ? submitted_.erase(it) : std::next(it);
    for (auto it = cancelled_.begin(); it != cancelled_.end();)
        it = !shown.count(it->first) || now - it->second > kRemembered ? cancelled_.erase(it) : std::next(it);
}

bool PlaceholderPool::cancel(JobId id, Time now, std::string_view reason, std::string& error)
{
    if (ActuatorError e = actuator_.cancel_job(id, reason)) {
        error = e.message;
        return false;
    }
    cancelled_[id] = now;
    return true;
}

std::string PlaceholderPool::keep(const NodeGroup& group, std::uint32_t keep, const ClusterState& state, Time now,
                                  std::string_view reason, std::string& error)
{
    targets_[group.name] = Target{keep, std::string(reason)};
    forget_settled(state, now);
    std::uint32_t in_flight = 0;
    for (const auto& [id, sent] : submitted_)
        in_flight += sent.first == group.name;
    std::vector<JobId> cancelled;
    for (const auto& [id, when] : cancelled_)
        cancelled.push_back(id);
    const PlaceholderPlan plan = plan_placeholders(group, keep, state, in_flight, cancelled);
    std::vector<std::string> done;
    std::vector<JobId> gone;
    for (JobId id : plan.cancel)
        if (cancel(id, now, reason, error))
            gone.push_back(id);
        else
            break;
    if (!gone.empty()) {
        std::string ids;
        for (JobId id : gone)
            ids += (ids.empty() ? "" : ",") + std::to_string(id);
        done.push_back("cancel placeholder job(s) " + ids);
    }
    if (error.empty() && !plan.power_down.empty()) {
        if (ActuatorError e = actuator_.power(plan.power_down, PowerAction::Down, reason))
            error = e.message;
        else
            done.push_back("power down " + compress_hostlist(plan.power_down));
    }
    std::uint32_t submitted = 0;
    for (std::uint32_t i = 0; error.empty() && i < plan.submit; ++i) {
        JobId id = 0;
        if (ActuatorError e = actuator_.submit_placeholder(PlaceholderJob{group_partition(group), qos_, kPlaceholderName},
                                                          reason, id)) {
            error = e.message;
            break;
        }
        submitted_[id] = {group.name, now};
        ++submitted;
    }
    if (submitted)
        done.push_back("submit " + std::to_string(submitted) + " placeholder job(s)");
    std::string text;
    for (const auto& d : done)
        text += (text.empty() ? "" : ", ") + d;
    return text;
}

std::string PlaceholderPool::make_room(const Job& job, const NodeGroup& group, const ClusterState& state, Time now,
                                       std::string& error)
{
    forget_settled(state, now);
    std::vector<JobId> cancelled;
    for (const auto& [id, when] : cancelled_)
        cancelled.push_back(id);
    std::string ids;
    for (JobId id : placeholders_to_free(job, group, state, cancelled)) {
        if (!cancel(id, now, "job " + std::to_string(job.id) + " takes its warm node", error))
            break;
        ids += (ids.empty() ? "" : ",") + std::to_string(id);
    }
    return ids.empty() ? "" : "cancel placeholder job(s) " + ids + " for job " + std::to_string(job.id);
}

} // namespace burst

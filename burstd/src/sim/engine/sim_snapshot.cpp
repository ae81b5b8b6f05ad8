#include "sim/engine/sim_snapshot.hpp"

#include "policy/cost/billing_boundary.hpp"
#include "policy/site/site_view.hpp"

#include <algorithm>
#include <limits>
#include <utility>

namespace burst {
namespace {

constexpr std::uint32_t kNoView = std::numeric_limits<std::uint32_t>::max();
const std::string kLocalPartition = "local";
// The pending reasons a job's view takes, interned once, not at every
// submit, start and requeue (model/pending_reason.hpp).
const PendingReason kResources{"Resources"}, kDependency{"Dependency"}, kBeginTime{"BeginTime"},
    kNoReason{"None"}, kConfiguring{"Configuring"};

NodeBaseState base_of(std::uint32_t alloc, std::uint32_t cpus)
{
    return alloc == 0 ? NodeBaseState::Idle : (alloc < cpus ? NodeBaseState::Mixed : NodeBaseState::Allocated);
}

} // namespace

SimSnapshot::SimSnapshot(const SimConfig& site, std::uint32_t jobs)
    : local_only_{kLocalPartition}, pos_(jobs, kNoView)
{
    state_.snapshot.cluster = site.cluster;
    Partition local;
    local.name = kLocalPartition;
    local.is_default = true;
    local_nodes_ = (site.local_cores + site.local_node_cores - 1) / site.local_node_cores;
    for (std::uint32_t i = 0; i < local_nodes_; ++i) {
        Node n;
        n.name = "local" + std::to_string(i + 1);
        n.cpus = std::min(site.local_node_cores, site.local_cores - i * site.local_node_cores);
        n.base = NodeBaseState::Idle;
        n.partitions = {kLocalPartition};
        local.nodes.push_back(n.name);
        state_.snapshot.nodes.push_back(std::move(n));
    }
    state_.snapshot.partitions.push_back(std::move(local));
    for (const auto& group : site.groups) {
        Partition p;
        p.name = group_partition(group);
        if (auto max_time = site.group_max_time.find(group.name); max_time != site.group_max_time.end())
            p.max_time = max_time->second;
        in_group_.push_back(PartitionSet{p.name});
        local_or_group_.push_back(PartitionSet{kLocalPartition, p.name});
        state_.snapshot.partitions.push_back(std::move(p));
    }
    state_.groups = site.groups;
    for (auto& g : state_.groups) {
        g.unlisted_nodes = g.capacity();
        g.nodes.clear();
        g.longest_boot = g.boot_time * (1 + boot_jitter_of(site, g)); // the longest boot the fleet draws
    }
    state_.node_layout = new_node_layout();
}

std::uint32_t SimSnapshot::list_cloud_node(std::size_t group, const std::string& name)
{
    NodeGroup& g = state_.groups[group];
    Node n;
    n.name = name;
    n.cpus = g.cpus;
    n.memory_mb = g.memory_mb;
    n.partitions = {group_partition(g)};
    state_.snapshot.nodes.push_back(std::move(n));
    state_.snapshot.partitions[1 + group].nodes.push_back(name);
    g.nodes.push_back(name);
    if (g.unlisted_nodes != NodeGroup::kUnlimited)
        --g.unlisted_nodes;
    state_.node_layout = new_node_layout();
    return std::uint32_t(state_.snapshot.nodes.size() - 1);
}

void SimSnapshot::add(std::uint32_t j, const TraceJob& t, std::uint32_t cpus, std::uint32_t cpus_per_task,
                      std::uint32_t priority)
{
    Job view;
    view.id = t.id;
    view.user = t.user;
    view.account = t.account;
    view.partitions = local_only_;
    view.name = t.name;
    view.category = t.category;
    view.reason = kResources;
    view.priority = priority;
    view.submit_time = t.submit;
    view.eligible_time = t.release();
    view.time_limit = t.time_limit;
    view.cpus = cpus;
    view.cpus_per_task = cpus_per_task;
    if (t.scaling) {
        view.threads.automatic = t.scaling->automatic;
        view.threads.count = t.scaling->automatic ? 0 : t.scaling->threads;
        view.size = t.scaling->size;
    }
    pos_[j] = std::uint32_t(state_.snapshot.jobs.size());
    state_.snapshot.jobs.push_back(std::move(view));
    owner_.push_back(j);
}

void SimSnapshot::remove(std::uint32_t j)
{
    const std::uint32_t pos = pos_[j];
    auto& list = state_.snapshot.jobs;
    if (pos != list.size() - 1) {
        list[pos] = std::move(list.back());
        owner_[pos] = owner_.back();
        pos_[owner_[pos]] = pos;
    }
    list.pop_back();
    owner_.pop_back();
    pos_[j] = kNoView;
}

void SimSnapshot::rethreaded(std::uint32_t j, std::uint32_t cpus, std::uint32_t cpus_per_task)
{
    Job& view = job(j);
    view.cpus = cpus;
    view.cpus_per_task = cpus_per_task;
}

void SimSnapshot::blocked(std::uint32_t j, std::string dependency)
{
    Job& view = job(j);
    view.reason = kDependency;
    view.dependency = std::move(dependency);
}

void SimSnapshot::held(std::uint32_t j)
{
    Job& view = job(j);
    view.reason = kBeginTime;
    view.dependency.clear();
}

void SimSnapshot::eligible(std::uint32_t j, Time since)
{
    Job& view = job(j);
    view.reason = kResources;
    view.dependency.clear();
    view.eligible_time = since;
}

void SimSnapshot::running(std::uint32_t j, Time start)
{
    Job& view = job(j);
    view.state = JobState::Running;
    view.reason = kNoReason;
    // Slurm too restarts the clock of a job whose nodes it powered up once
    // they are (job_config_fini): its start and its limit count from now.
    view.start_time = start;
}

void SimSnapshot::configuring(std::uint32_t j, Time start)
{
    // Slurm shows the job RUNNING (CONFIGURING) from allocation on.
    Job& view = job(j);
    view.state = JobState::Running;
    view.reason = kConfiguring;
    view.start_time = start;
}

void SimSnapshot::requeued(std::uint32_t j, std::size_t group)
{
    Job& view = job(j);
    view.state = JobState::Pending;
    view.reason = kResources;
    view.start_time = 0;
    view.nodes.clear();
    view.node_count = 0;
    view.partitions = local_or_group_[group];
}

void SimSnapshot::local_only(std::uint32_t j)
{
    job(j).partitions = local_only_;
}

void SimSnapshot::routed(std::uint32_t j, std::size_t group)
{
    job(j).partitions = local_or_group_[group];
}

void SimSnapshot::allocated(std::uint32_t j, std::size_t group, std::vector<std::string> nodes)
{
    Job& view = job(j);
    view.partitions = in_group_[group];
    view.node_count = std::uint32_t(nodes.size());
    view.nodes = std::move(nodes);
}

ClusterState& SimSnapshot::begin_cycle(Time now, std::uint32_t local_busy, const std::vector<NodeGroup>& groups)
{
    Snapshot& snap = state_.snapshot;
    snap.time = now;
    ++snap.seq;
    for (std::uint32_t i = 0; i < local_nodes_; ++i) {
        Node& n = snap.nodes[i];
        n.alloc_cpus = std::min(local_busy, n.cpus);
        local_busy -= n.alloc_cpus;
        n.base = base_of(n.alloc_cpus, n.cpus);
    }
    state_.ended_but_billed = spans_billed_past_end(state_.ended_but_billed, groups, now);
    return state_;
}

} // namespace burst

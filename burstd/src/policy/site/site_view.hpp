#pragma once
// The questions every hiring policy asks of a ClusterState, answered once per
// decision in O(jobs + listed nodes), a group's unlisted nodes taken as a
// count (NodeGroup::unlisted_nodes): how many local cores are free, which jobs wait
// in priority order, and per node group how much is up, booting, hireable and
// already promised to routed jobs.

#include "model/cluster_state.hpp"
#include "model/node_needs.hpp"
#include "model/partition.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace burst {

struct GroupView {
    const NodeGroup* group = nullptr;
    std::size_t index = 0;            // in SiteView::groups (copies of the view keep it)
    // What each of its nodes has, by what Slurm lists for all of them in
    // the snapshot (model/node_needs.hpp).
    NodeOffer offer;
    // Its partition's MaxTime (0: none): Slurm starts no job with a longer
    // time limit, or none, on its nodes.
    Seconds max_time = 0;
    std::uint32_t up_nodes = 0;       // usable (idle, mixed or allocated)
    std::uint32_t booting_nodes = 0;  // powering up
    std::uint32_t hireable_nodes = 0; // powered down, within max_count and the group's hire limit
    std::uint64_t alloc_cpus = 0;     // on up and booting nodes
    std::uint64_t up_alloc_cpus = 0;  // on up nodes: jobs actually running
    std::uint64_t free_up_cpus = 0;
    std::uint64_t free_booting_cpus = 0;
    std::uint64_t routed_pending_cpus = 0; // routed here, not yet allocated
    std::vector<std::string> idle_nodes;   // up, nothing allocated, not draining

    // Cores a newly routed job could still get: free on up or booting nodes,
    // or on nodes Slurm would resume for it, less what routed jobs will take.
    std::uint64_t free_capacity() const
    {
        std::uint64_t total = free_up_cpus + free_booting_cpus + std::uint64_t(hireable_nodes) * group->cpus;
        return total > routed_pending_cpus ? total - routed_pending_cpus : 0;
    }
};

class SiteView {
public:
    // A policy deciding again and again builds its views with a
    // SiteViewBuilder (site_view_builder.hpp), which keeps their storage.
    static SiteView of(const ClusterState& state);

    std::uint64_t local_cpus = 0;
    std::uint64_t local_free_cpus = 0;
    std::uint64_t local_alloc_cpus = 0;
    // Jobs that could start now (not awaiting a dependency), highest priority
    // first, then oldest, then lowest id.
    std::vector<const Job*> pending;
    std::vector<int> pending_group;  // group_of(pending[i]->partitions), computed once
    // pending[i]'s total_cpus(), max(submit, eligible) time and burst option,
    // copied while the snapshot is read in order: reading them through
    // `pending` (priority order) misses the cache on nearly every job of a
    // long queue.
    std::vector<std::uint64_t> pending_cpus;
    std::vector<Time> pending_since;
    // Never for a job no group's nodes could run (SiteView::serves): to
    // every policy it is local work.
    std::vector<BurstOption> pending_burst;
    std::vector<NodeNeeds> pending_needs;
    // pending[i]->time_limit, only when some group's partition has a
    // MaxTime (empty otherwise: serves() never asks).
    std::vector<Seconds> pending_time_limit;
    // Waiting jobs, burstable but for what they ask of a node, that no
    // group's nodes have (a GPU, a feature): kept local.
    std::size_t unservable_jobs = 0;
    NodeNeeds first_unservable;
    // Waiting jobs, burstable otherwise, whose time limit (or none) is
    // beyond the MaxTime of every group's partition whose nodes could run
    // them: kept local.
    std::size_t too_long_jobs = 0;
    // Waiting jobs whose needs burstd could not intern (NodeNeeds::unchecked).
    std::size_t unchecked_jobs = 0;
    std::vector<const Job*> running;
    std::vector<int> running_group; // group_of(running[i]->partitions), computed once
    std::vector<GroupView> groups;    // in ClusterState::groups order
    // Per snapshot node, in snapshot order: its index into `groups`, or -1.
    std::vector<int> node_group;

    // Whether `group`'s nodes have what a job with `needs` asks of each of
    // its nodes, so that Slurm could start it there.
    bool serves(NodeNeeds needs, const GroupView& group) const
    {
        if (needs.empty())
            return true;
        const std::uint32_t row = row_of(needs);
        return row != kNoRow ? served_[row * groups.size() + group.index] != 0 : needs.met_by(group.offer);
    }
    // Whether Slurm could start waiting job pending[i] in `group`: its nodes
    // have what it asks, and its time limit is within the partition's MaxTime.
    bool serves(std::size_t i, const GroupView& group) const
    {
        return (group.max_time == 0 || within_max_time(pending_time_limit[i], group.max_time)) &&
               serves(pending_needs[i], group);
    }
    // Whether some group's partition takes a job of that time limit.
    bool within_some_max_time(Seconds time_limit) const
    {
        return groups.empty() || within_max_time(time_limit, longest_max_time_);
    }
    // Whether any group's nodes have what a job with `needs` asks.
    bool served_somewhere(NodeNeeds needs) const
    {
        if (needs.empty())
            return true;
        const std::uint32_t row = row_of(needs);
        return row != kNoRow ? served_anywhere_[row] != 0
                             : std::any_of(groups.begin(), groups.end(),
                                           [needs](const GroupView& g) { return needs.met_by(g.offer); });
    }
    // What a policy's decision notes of the jobs above, if any.
    std::vector<std::string> needs_notes() const;

private:
    friend class SiteViewBuilder;
    static constexpr std::uint32_t kNoRow = ~std::uint32_t(0);
    // The row SiteView::of filled for `needs`; kNoRow for needs interned
    // since, which are then answered from the offers directly.
    std::uint32_t row_of(NodeNeeds needs) const
    {
        return needs.id() < needs_row_.size() ? needs_row_[needs.id()] : kNoRow;
    }
    // Whether any group serves `needs`; fills its row of served_ the first time.
    bool served_anywhere(NodeNeeds needs);
    std::vector<std::uint32_t> needs_row_; // by NodeNeeds::id(): row in served_, or kNoRow
    std::vector<char> served_;             // row-major, one row per distinct needs, a column per group
    std::vector<char> served_anywhere_;    // per row
    Seconds longest_max_time_ = 0;         // of the groups' partitions; 0 when one has none

    // Index into `groups` of the group a job with these partitions may run
    // in (routed or running there), or -1 when it is local-only: the group
    // of its first partition that holds one.  SiteViewBuilder asks it once per
    // distinct list, not per job (model/partition_set.hpp).
    int group_of(const PartitionSet& partitions) const;

    // Few groups: comparing short names beats hashing them.
    std::vector<std::pair<std::string, int>> partition_group_;
};

// The partition holding a group's nodes; a group without one is named after itself.
const std::string& group_partition(const NodeGroup& group);

} // namespace burst

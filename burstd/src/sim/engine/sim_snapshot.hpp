#pragma once
// The ClusterState the policies see, kept up as the replay goes rather than
// built anew each decision cycle: a view of every submitted job until it
// ends, a view of every local node and of every CLOUD node ever powered up,
// the partitions, the node groups and the spans of ended instances still
// billed.  A group's nodes never powered up are a count, its
// unlisted_nodes: a quota the replay never reaches costs nothing.  The
// partition lists a job's view takes are interned once.
// Each cycle begin_cycle() brings the time and the local nodes' use up to
// date; the cloud fleet shows its nodes, instances and boots itself
// (CloudFleet::show).

#include "model/billed_span.hpp"
#include "model/clock.hpp"
#include "model/cluster_state.hpp"
#include "model/node_group.hpp"
#include "model/partition_set.hpp"
#include "sim/engine/sim_config.hpp"
#include "sim/trace/trace.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace burst {

class SimSnapshot {
public:
    // `site` is the replay's: every group with its nodes named.  Room for
    // the views of `jobs` jobs.
    SimSnapshot(const SimConfig& site, std::uint32_t jobs);

    ClusterState& state() { return state_; }
    const ClusterState& state() const { return state_; }
    // Group `group`'s partition's MaxTime (0: none).
    Seconds max_time(std::size_t group) const { return state_.snapshot.partitions[1 + group].max_time; }

    // The local pool's nodes come first; the cloud nodes' views follow in
    // the order they were first powered up.
    std::uint32_t local_nodes() const { return local_nodes_; }
    // A node of group `group` about to be powered up for the first time:
    // listed from now on, in the group and its partition; its state is the
    // fleet's to show.  Returns the index of its view.
    std::uint32_t list_cloud_node(std::size_t group, const std::string& name);
    Node& node(std::uint32_t view) { return state_.snapshot.nodes[view]; }
    const Node& node(std::uint32_t view) const { return state_.snapshot.nodes[view]; }

    // A submitted job's view, pending (Resources) in the local partition.
    void add(std::uint32_t j, const TraceJob& t, std::uint32_t cpus, std::uint32_t cpus_per_task,
             std::uint32_t priority);
    // The job ended: its view goes.
    void remove(std::uint32_t j);
    Job& job(std::uint32_t j) { return state_.snapshot.jobs[pos_[j]]; }
    const Job& job(std::uint32_t j) const { return state_.snapshot.jobs[pos_[j]]; }
    // The jobs with a view, in the views' order.
    const std::vector<std::uint32_t>& shown() const { return owner_; }

    // What Slurm shows of a job as it goes: pending on its parents
    // (`dependency`, afterany:...), held until its begin time, eligible and
    // waiting for resources, running (or configuring while its cloud nodes
    // boot) since `start`, requeued.
    void blocked(std::uint32_t j, std::string dependency);
    void held(std::uint32_t j);
    void eligible(std::uint32_t j, Time since);
    void running(std::uint32_t j, Time start);
    void configuring(std::uint32_t j, Time start);
    void requeued(std::uint32_t j, std::size_t group);
    // Its CPUs per task changed, and with them its CPUs.
    void rethreaded(std::uint32_t j, std::uint32_t cpus, std::uint32_t cpus_per_task);
    // Its partitions: the local one alone; the local one or the group's
    // (routed there); the group's, on `nodes` (allocated there).
    void local_only(std::uint32_t j);
    void routed(std::uint32_t j, std::size_t group);
    void allocated(std::uint32_t j, std::size_t group, std::vector<std::string> nodes);

    // An instance was powered down: its span may still be billed.
    void instance_ended(const BilledSpan& span) { state_.ended_but_billed.push_back(span); }

    // Before a decision cycle at `now`: its time and number, the use of the
    // local nodes (`local_busy` cores, filled node by node), the spans of
    // ended instances that `groups` still bill.  Instances and boots are the
    // fleet's to show (CloudFleet::show).
    ClusterState& begin_cycle(Time now, std::uint32_t local_busy, const std::vector<NodeGroup>& groups);

private:
    // Interned first, as the replay always did.
    PartitionSet local_only_;
    // Per group, its partition alone (running there) and the local one or
    // it (routed there).
    std::vector<PartitionSet> in_group_, local_or_group_;
    ClusterState state_;
    std::uint32_t local_nodes_ = 0;
    std::vector<std::uint32_t> pos_;   // job -> index of its view
    std::vector<std::uint32_t> owner_; // index of a view -> its job
};

} // namespace burst

#pragma once
// The placeholder jobs that hold each node group's warm nodes, kept at
// what the warm pool asks for (KeepPlaceholders: keep that many nodes of
// the group powered on).  Nodes real work holds count first; a placeholder
// holds each further one, and Slurm powers its node up for it through
// ResumeProgram like for any job.  Real work always comes first: every
// cycle, before a job is routed to a group, and whenever real jobs wait in
// its partition, running placeholders of the group are cancelled to give
// them their nodes at once (Slurm 22.05 powers up another node rather than
// preempt one; bench/results/warm_node_start.txt).  When the forecast
// drops, queued placeholders go first, then running ones, whose nodes are
// powered down.  Scavenger jobs running alone on a group's node that is up
// (Slurm may start one there before burstd keeps it off the cloud) hold it
// the same way: the node counts as one of those kept, and they give it up,
// requeued, for real work or a lower forecast; then it idles as any node.
//
// A scavenger job burstd pinned to a warm node in a placeholder's place
// (ScavengerPlacement) is the warm pool's own: a lower forecast powers its
// node down as a placeholder's, and one Slurm would not requeue is
// cancelled, as preemption (PreemptMode=REQUEUE) does with such jobs.
//
// Placeholders are found in each snapshot by QOS and name
// (model/standby_jobs.hpp), so a restart of burstd picks up the ones it
// left; what it did since the last snapshot is kept as SettlingJobs.

#include "app/warm/settling_jobs.hpp"
#include "model/clock.hpp"
#include "model/cluster_state.hpp"
#include "model/job.hpp"
#include "slurm/slurm_actuator.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace burst {

// What keeps a group's pool at its count.
struct PlaceholderPlan {
    std::uint32_t submit = 0;
    std::vector<JobId> cancel;           // in the order to cancel
    std::vector<std::string> power_down; // the nodes of running placeholders cancelled because the forecast dropped
};

// The pool of `group` in `state` (standby jobs set aside), with `in_flight`
// placeholders submitted that the snapshot does not show yet and
// `cancelled` ones (placeholders cancelled, scavenger jobs requeued) it
// still shows: what to do to keep `keep` nodes powered on.  The nodes of
// `not_requeueable` scavenger jobs count as held and are never given up;
// those of `pinned` ones are powered down when given up for a lower count.
PlaceholderPlan plan_placeholders(const NodeGroup& group, std::uint32_t keep, const ClusterState& state,
                                  std::uint32_t in_flight, const std::vector<JobId>& cancelled,
                                  const std::vector<JobId>& not_requeueable = {},
                                  const std::vector<JobId>& pinned = {});

// The holders of `group` to give up (placeholders to cancel, scavenger jobs
// to requeue) so that `nodes` more nodes are free for real work now, beyond
// the group's idle ones: those on nodes that are up first (a node still
// booting would make the job wait), placeholders before scavenger work.
std::vector<JobId> placeholders_to_free(std::uint32_t nodes, const NodeGroup& group, const ClusterState& state,
                                        const std::vector<JobId>& cancelled,
                                        const std::vector<JobId>& not_requeueable = {});

// The nodes real jobs wait for in the group's partition now (not held back
// by a dependency, a hold or a limit): single-node work packed into the
// group's nodes by its CPUs, multi-node jobs at their node count.
std::uint32_t nodes_waited_for(const NodeGroup& group, const ClusterState& state);

// The single-node scavenger jobs running on nodes of `group` that are up
// and that no other job runs on: they keep those nodes up as placeholders
// do, and give them up the same way, requeued rather than cancelled.
std::vector<const Job*> scavengers_holding(const NodeGroup& group, const ClusterState& state);

// The placeholders burstd submitted, in `state`, of `group`.
std::vector<const Job*> placeholders_of(const NodeGroup& group, const ClusterState& state);

// The nodes burstd's running placeholders and scavenger jobs hold (see
// scavengers_holding), in `state`.
std::vector<std::string> held_nodes(const ClusterState& state);

class PlaceholderPool {
public:
    explicit PlaceholderPool(SlurmActuator& actuator) : actuator_(actuator) {}

    // QOS of the placeholders it submits (burstd.conf PlaceholderQOS=);
    // an empty one (a reload took the key out) leaves the last one, by
    // which the placeholders left are still found.
    void set_qos(const std::string& qos);
    const std::string& qos() const { return qos_; }
    // Keeps `keep` nodes of `group` powered on.  Returns what it did in
    // words ("" when nothing), or why it could not (`error`).
    std::string keep(const NodeGroup& group, std::uint32_t keep, const ClusterState& state, Time now,
                     std::string_view reason, std::string& error);
    // Frees nodes of `group` held by placeholders for the real jobs waiting
    // in its partition (every cycle, whatever the warm pool asks).
    std::string free_for_waiting(const NodeGroup& group, const ClusterState& state, Time now, std::string& error);
    // Frees nodes of `group` held by placeholders for `job`, before its route.
    std::string make_room(const Job& job, const NodeGroup& group, const ClusterState& state, Time now,
                          std::string& error);
    // Cancels the running `placeholder` so that the waiting scavenger job
    // `taker`, pinned to its node, runs there instead; the node stays up.
    std::string hand_over(const Job& placeholder, JobId taker, Time now, std::string& error);
    // The scavenger jobs pinned to warm nodes, as of this cycle: those of
    // each group that wait to start where a placeholder was count as its
    // holders.
    struct Pinned {
        std::vector<JobId> jobs;
        std::map<std::string, std::uint32_t> waiting; // by group
    };
    void set_pinned(Pinned pinned) { pinned_ = std::move(pinned); }
    // Cancelled, though a snapshot may still show it.
    bool cancelled(JobId job) const { return settling_.is_cancelled(job); }
    // What the warm pool last asked of each group, and why.
    struct Target {
        std::uint32_t keep = 0;
        std::string reason;
    };
    const std::map<std::string, Target>& targets() const { return targets_; }
    // No warm pool any more: no target either.
    void forget_targets() { targets_.clear(); }

private:
    void forget_settled(const ClusterState& state);
    // Gives up the nodes of the holders `ids`, in order: cancels
    // placeholders, requeues scavenger jobs.  What was done in words, "" for
    // nothing.
    std::string give_up(const std::vector<JobId>& ids, const ClusterState& state, Time now, std::string_view reason,
                        std::string& error);
    // Running scavenger jobs Slurm refused to requeue: their nodes stay held.
    std::vector<JobId> not_requeueable() const;

    SlurmActuator& actuator_;
    std::string qos_;
    std::map<std::string, Target> targets_;
    SettlingJobs settling_; // owners: node groups
    std::set<JobId> not_requeueable_; // running scavenger jobs Slurm would not requeue
    Pinned pinned_;
    bool placeholder_refused_ = false; // by the last give_up
};

} // namespace burst

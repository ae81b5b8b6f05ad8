#pragma once
// The placeholder jobs that hold each node group's warm nodes, kept at
// what the warm pool asks for (KeepPlaceholders: keep that many nodes of
// the group powered on).  Nodes real work holds count first; a placeholder
// holds each further one, and Slurm powers its node up for it through
// ResumeProgram like for any job.  Real work always comes first: before a
// job is routed to a group, and whenever real jobs wait in its partition,
// running placeholders of the group are cancelled to give them their nodes
// at once (Slurm 22.05 powers up another node rather than preempt one;
// bench/results/warm_node_start.txt).  When the forecast drops, queued
// placeholders go first, then running ones, whose nodes are powered down.
//
// Placeholders are found in each snapshot by QOS and name
// (model/standby_jobs.hpp), so a restart of burstd picks up the ones it
// left; submissions and cancellations the snapshot does not show yet are
// remembered for a while, so that none is done twice.

#include "model/clock.hpp"
#include "model/cluster_state.hpp"
#include "model/job.hpp"
#include "slurm/slurm_actuator.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace burst {

// Every placeholder burstd submits has this job name.
inline constexpr const char* kPlaceholderName = "burst-placeholder";

// What keeps a group's pool at its count.
struct PlaceholderPlan {
    std::uint32_t submit = 0;
    std::vector<JobId> cancel;           // in the order to cancel
    std::vector<std::string> power_down; // the nodes of running placeholders cancelled because the forecast dropped
};

// The pool of `group` in `state` (standby jobs set aside), with `in_flight`
// placeholders submitted that the snapshot does not show yet and
// `cancelled` ones it still shows: what to do to keep `keep` nodes
// powered on.
PlaceholderPlan plan_placeholders(const NodeGroup& group, std::uint32_t keep, const ClusterState& state,
                                  std::uint32_t in_flight, const std::vector<JobId>& cancelled);

// The running placeholders of `group` to cancel so that `job` (about to be
// routed there) starts on their nodes now: as many as it asks nodes.
std::vector<JobId> placeholders_to_free(const Job& job, const NodeGroup& group, const ClusterState& state,
                                        const std::vector<JobId>& cancelled);

// The placeholders burstd submitted, in `state`, of `group`.
std::vector<const Job*> placeholders_of(const NodeGroup& group, const ClusterState& state);

class PlaceholderPool {
public:
    explicit PlaceholderPool(SlurmActuator& actuator) : actuator_(actuator) {}

    // QOS of the placeholders it submits (burstd.conf PlaceholderQOS=).
    void set_qos(std::string qos) { qos_ = std::move(qos); }
    // Keeps `keep` nodes of `group` powered on.  Returns what it did in
    // words ("" when nothing), or why it could not (`error`).
    std::string keep(const NodeGroup& group, std::uint32_t keep, const ClusterState& state, Time now,
                     std::string_view reason, std::string& error);
    // Frees nodes of `group` held by placeholders for `job`, before its route.
    std::string make_room(const Job& job, const NodeGroup& group, const ClusterState& state, Time now,
                          std::string& error);
    // What the warm pool last asked of each group, and why.
    struct Target {
        std::uint32_t keep = 0;
        std::string reason;
    };
    const std::map<std::string, Target>& targets() const { return targets_; }

    // How long a submission or cancellation is remembered while the
    // snapshot does not show it: a few export intervals.
    static constexpr Seconds kRemembered = 60;

private:
    void forget_settled(const ClusterState& state, Time now);
    bool cancel(JobId id, Time now, std::string_view reason, std::string& error);

    SlurmActuator& actuator_;
    std::string qos_;
    std::map<std::string, Target> targets_;
    std::map<JobId, std::pair<std::string, Time>> submitted_; // not yet in a snapshot: id -> (group, when)
    std::map<JobId, Time> cancelled_;                         // still in the snapshot
};

} // namespace burst

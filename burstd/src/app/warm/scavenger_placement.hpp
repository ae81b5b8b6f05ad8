#pragma once
// Where waiting scavenger jobs may run.  Scavenger work never costs money:
// a waiting scavenger job loses the node groups' partitions it asked for
// (asking for no other, it is held), so Slurm never resumes a CLOUD node
// for it.  Where the site allows it (ScavengeWarmNodes=yes), a waiting
// scavenger job that asked for a group's partition takes a placeholder's
// place on a warm node of that group: it is pinned there first
// (Partition=<the group's> ReqNodeList=<the node>, released if burstd held
// it), then the placeholder is cancelled, so the node, already up, goes to
// it.  Running there it holds the node as the placeholder did, until
// PlaceholderPool requeues it for real work or a lower forecast.  Waiting
// again, not started in time, or its node no longer up, it is put back
// where it waited before.  What each job asked for and where it is pinned
// are kept in the ledger, so a restart picks them up.

#include "app/warm/placeholder_pool.hpp"
#include "ledger/ledger.hpp"
#include "model/clock.hpp"
#include "model/cluster_state.hpp"
#include "slurm/slurm_actuator.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace burst {

class ScavengerPlacement {
public:
    // How long a pinned job may wait for its node before it is put back,
    // by the snapshots' clock.
    static constexpr Seconds kStartGrace = 60;

    ScavengerPlacement(SlurmActuator& actuator, Ledger& ledger) : actuator_(actuator), ledger_(ledger) {}

    // What it did, for the log and the status.
    struct Step {
        std::string action;
        std::string reason;
        std::string error; // "" = done
    };

    // First in each cycle: forgets the jobs that ended, gives those that
    // are no scavenger jobs any more back what they asked for, and puts back
    // pinned ones that wait again, waited too long, or whose node is no
    // longer up or runs other work -- every pinned one when `enabled` is
    // false.
    std::vector<Step> settle(const ClusterState& state, bool enabled);
    // The pinned jobs, and those of each group that wait for a node no
    // placeholder holds any more: the pool counts them as holders on their
    // way.
    PlaceholderPool::Pinned pinned(const ClusterState& state, const PlaceholderPool& pool) const;
    // The nodes pinned jobs wait for: no policy may release them.
    std::vector<std::string> awaited_nodes(const ClusterState& state) const;
    // Puts waiting scavenger jobs on the nodes running placeholders of the
    // pool hold (those not being given up), one job per node, and cancels
    // those placeholders through the pool.
    std::vector<Step> fill_warm_nodes(const ClusterState& state, PlaceholderPool& pool, Time now);
    // Takes the node groups' partitions away from waiting scavenger jobs
    // that have others, and holds those that have none; with `enabled`,
    // what each asked for is kept first.
    std::vector<Step> keep_off_cloud(const ClusterState& state, bool enabled);

    // The warm node job `id` is pinned to, "" for none.
    std::string pinned_node(JobId id) const;

private:
    void load(std::vector<Step>& steps);
    bool save(const ScavengerRecord& record, std::vector<Step>& steps, const std::string& action);
    // Forgets the records of `jobs`, in the ledger first; `why` for the log.
    void forget(const std::vector<JobId>& jobs, std::string_view why, std::vector<Step>& steps);
    // Pins `job` to `node` of `group` (again, after a crash: the update is
    // the same).  Slurm may apply part of a refused update, so a refusal
    // puts the job back.
    // A job that is no scavenger job any more gets back every partition it
    // asked for, any node, and its release if burstd held it.
    bool give_back(const Job& job, const ScavengerRecord& record, std::vector<Step>& steps);
    bool pin(const Job& job, ScavengerRecord& record, const NodeGroup& group, const ClusterState& state,
             std::string_view reason, std::vector<Step>& steps);
    // Puts the job back where it waited before it was pinned: its own
    // partitions less the node groups', or held.  `requeued`: it ran, and
    // Slurm holds it back until its BeginTime.
    void put_back(JobId job, ScavengerRecord& record, const ClusterState& state, bool requeued, std::string_view why,
                  std::vector<Step>& steps);

    SlurmActuator& actuator_;
    Ledger& ledger_;
    bool loaded_ = false;
    std::map<JobId, ScavengerRecord> records_; // the ledger's, by job
    std::set<JobId> handled_;                  // moved off the cloud or held while they wait
    std::set<JobId> started_;                  // seen running while pinned
    std::set<JobId> would_not_start_;          // pinned once, never started: not pinned again
};

} // namespace burst

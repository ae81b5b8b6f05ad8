#pragma once
// Where the decision cycle's actions take effect in the replay, as burstd's
// actuator plus Slurm would carry them out: a route puts a pending job in
// the group's partition too, an unroute takes it out, a hire powers up
// nodes of the group (as many as are powered down), a release drains the
// nodes, placeholders keep nodes of the group powered on, a thread count
// changes a pending --threads=auto job's CPUs and run time (JobThreads).  An
// action on an unknown job, node or group, or on a job no longer pending,
// is rejected with the reason.

#include "model/cluster_state.hpp"
#include "model/node_group.hpp"
#include "policy/cycle/action_sink.hpp"
#include "policy/decision.hpp"
#include "sim/engine/cloud_fleet.hpp"
#include "sim/engine/local_scheduler.hpp"
#include "sim/engine/sim_jobs.hpp"
#include "sim/engine/sim_snapshot.hpp"
#include "sim/engine/simulator.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace burst {

// Where a job's CPUs per task change: the replay keeps its run time, its
// share of the demand and its view together.
class JobThreads {
public:
    // "" when done, else why not (as burstd's actuator words it).
    virtual std::string set_threads(std::uint32_t j, std::uint32_t cpus_per_task) = 0;

protected:
    ~JobThreads() = default;
};

class SimActionSink final : public ActionSink {
public:
    SimActionSink(const std::vector<NodeGroup>& groups, const SimJobs& jobs, LocalScheduler& scheduler,
                  CloudFleet& fleet, SimSnapshot& snapshot, JobThreads& threads)
        : groups_(groups), jobs_(jobs), scheduler_(scheduler), fleet_(fleet), snapshot_(snapshot), threads_(threads)
    {
    }

    // The engine's snapshot is the state the cycle passes: it shows what
    // applying did, to the chain's later links.
    std::string apply(const Action& action, ClusterState& state) override;
    // The actions applied and rejected, the thread counts changed and the
    // nodes hired beyond what was powered down, into `result`.
    void report(SimResult& result) const;

private:
    int group_index(const std::string& name) const; // -1: unknown
    std::string route(const RouteToCloud& route);
    std::string unroute(const UnrouteJob& unroute);
    std::string hire(const HireNodes& hire);
    std::string release(const ReleaseNodes& release);
    std::string keep(const KeepPlaceholders& keep, bool& changed);
    std::string set_threads(const SetJobThreads& set);

    const std::vector<NodeGroup>& groups_;
    const SimJobs& jobs_;
    LocalScheduler& scheduler_;
    CloudFleet& fleet_;
    SimSnapshot& snapshot_;
    JobThreads& threads_;
    std::uint64_t applied_ = 0;
    std::uint64_t rejected_ = 0;
    std::uint64_t threads_set_ = 0;
    std::uint64_t hire_shortfall_ = 0;
};

} // namespace burst

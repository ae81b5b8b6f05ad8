#pragma once
// Where the decision cycle's actions take effect in the replay, as burstd's
// actuator plus Slurm would carry them out: a route puts a pending job in
// the group's partition too, an unroute takes it out, a hire powers up
// nodes of the group (as many as are powered down), a release drains the
// nodes, placeholders keep nodes of the group powered on.  Thread counts
// are not simulated.  An action on an unknown job, node or group, or on a
// job no longer pending, is rejected with the reason.

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

class SimActionSink final : public ActionSink {
public:
    SimActionSink(const std::vector<NodeGroup>& groups, const SimJobs& jobs, LocalScheduler& scheduler,
                  CloudFleet& fleet, SimSnapshot& snapshot)
        : groups_(groups), jobs_(jobs), scheduler_(scheduler), fleet_(fleet), snapshot_(snapshot)
    {
    }

    // The engine's snapshot is the state the cycle passes: it shows what
    // applying did, to the chain's later links.
    std::string apply(const Action& action, ClusterState& state) override;
    // The actions applied and rejected, the thread actions ignored and the
    // nodes hired beyond what was powered down, into `result`.
    void report(SimResult& result) const;

private:
    int group_index(const std::string& name) const; // -1: unknown
    std::string route(const RouteToCloud& route);
    std::string unroute(const UnrouteJob& unroute);
    std::string hire(const HireNodes& hire);
    std::string release(const ReleaseNodes& release);
    std::string keep(const KeepPlaceholders& keep);

    const std::vector<NodeGroup>& groups_;
    const SimJobs& jobs_;
    LocalScheduler& scheduler_;
    CloudFleet& fleet_;
    SimSnapshot& snapshot_;
    std::uint64_t applied_ = 0;
    std::uint64_t rejected_ = 0;
    std::uint64_t thread_actions_ignored_ = 0;
    std::uint64_t hire_shortfall_ = 0;
};

} // namespace burst

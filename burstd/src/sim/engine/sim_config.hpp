#pragma once
// The simulated site: local cores, CLOUD node groups, and the Slurm and
// burstd settings that shape what a policy's decisions lead to.

#include "model/clock.hpp"
#include "model/node_group.hpp"
#include "policy/budget/budget_cap.hpp"
#include "sim/engine/capacity_shortage.hpp"
#include "sim/priority/priority_config.hpp"
#include "sim/trace/trace.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace burst {

// The nodes a group has in a replay: its named nodes up to max_count, or,
// when it names none, max_count nodes named "<group>-<i>" (no max_count:
// NodeGroup::kUnlimited).
inline std::uint32_t simulated_node_count(const NodeGroup& group)
{
    if (!group.nodes.empty())
        return group.capacity();
    return group.max_count == 0 ? NodeGroup::kUnlimited : group.max_count;
}

// How long `job` runs on the group's nodes: its true runtime at their
// speed, but Slurm still ends it at its limit.
inline Seconds runtime_in(const NodeGroup& group, const TraceJob& job)
{
    const Seconds run = job.true_runtime() / group.speed;
    return job.time_limit > 0 ? std::min(run, job.time_limit) : run;
}

struct SimConfig;
// The jitter of `group`'s boots: its own, else the site's.
double boot_jitter_of(const SimConfig& config, const NodeGroup& group);
// How long `group`'s idle nodes stay up: its partition's SuspendTime, else
// the site's; infinity = never suspended.
Seconds suspend_time_of(const SimConfig& config, const NodeGroup& group);

struct SimConfig {
    std::uint32_t local_cores = 0;
    // Local cores are scheduled as one pool (as SWF machines are); policies
    // see them as nodes of this many cores.
    std::uint32_t local_node_cores = 32;
    // Groups without node names get max_count nodes named "<group>-<i>",
    // as many as the replay powers up when max_count is 0.
    std::vector<NodeGroup> groups;
    // By group name: when its launches fail for capacity (none = never).
    std::map<std::string, CapacityShortage> shortages;
    Seconds cycle = 60;           // decision interval (burstd's CycleInterval)
    Seconds suspend_time = 300;   // Slurm SuspendTime for idle CLOUD nodes
    // By group name: its partition's own SuspendTime (infinity: never).
    std::map<std::string, Seconds> group_suspend_time;
    double boot_jitter = 0.1;     // boot time is uniform in boot_time × (1 ± jitter)
    // By group name: its own jitter instead of boot_jitter.
    std::map<std::string, double> group_boot_jitter;
    // By group name: its partition's MaxTime (none: no limit); a job with a
    // longer time limit, or none, never starts there, as in Slurm.
    std::map<std::string, Seconds> group_max_time;
    std::uint64_t seed = 1;
    // Slurm's bf_max_job_test: queued jobs the backfill pass looks at beyond
    // the head, which bounds the cost of a pass on deep queues.
    std::uint32_t bf_max_job_test = 500;
    // burstd.conf's Interactive= on the local pool: cores burstd keeps held
    // for interactive jobs (TraceJob::interactive), 0 = none.
    std::uint32_t interactive_cores = 0;
    // burstd.conf's ScavengeWarmNodes=yes, with a backlog of scavenger work
    // that never runs dry: whole-node jobs of this length run on every node
    // the warm pool holds idle, and start over when requeued (0 = none).
    Seconds scavenger_run = 0;
    // Queue order: FCFS unless multifactor is asked for.
    PriorityConfig priority;
    std::string cluster = "sim";
    // Keep demand, supply and cloud nodes per decision cycle (--plot).
    bool record_timeline = false;
    // burstd.conf's Budget= lines: every decision passes burstd's BudgetCap
    // before it is applied, with spend booked per interval by burstd's
    // SpendTracker and suspend_time as every group's SuspendTime.  Empty = no
    // cap.
    std::vector<BudgetLimit> budgets;
    // false: spend is booked and reported against the lines, but every
    // decision is applied (what the cap would have prevented).
    bool enforce_budgets = true;
};

inline Seconds suspend_time_of(const SimConfig& config, const NodeGroup& group)
{
    auto it = config.group_suspend_time.find(group.name);
    return it != config.group_suspend_time.end() ? it->second : config.suspend_time;
}

inline double boot_jitter_of(const SimConfig& config, const NodeGroup& group)
{
    auto it = config.group_boot_jitter.find(group.name);
    return it != config.group_boot_jitter.end() ? it->second : config.boot_jitter;
}

} // namespace burst

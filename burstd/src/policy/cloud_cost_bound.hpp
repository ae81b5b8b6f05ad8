#pragma once
// Upper bounds on what cloud capacity may still cost, for the budget cap: a
// hard cap has to count money already promised, not only money spent.
// Amounts are instance-seconds × the group's price, as SpendTracker counts
// spend, on whole nodes: SpendTracker books an account at most the share of
// a node its job's cores take, so a whole node bounds it.  std::nullopt means
// there is no bound (a job without a time limit, or nodes Slurm never powers
// down).

#include "model/clock.hpp"
#include "model/job.hpp"
#include "model/node_group.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace burst {

// Whole nodes of `group` one task of `job` takes (its node count, CPUs and memory).
std::uint32_t nodes_per_task(const Job& job, const NodeGroup& group);

// A pending job routed to `group`: every task on whole nodes for the
// group's boot time plus the job's time limit (Slurm starts the limit when
// the nodes are up).
std::optional<double> route_cost_bound(const Job& job, const NodeGroup& group);

// One node of a job running (or configuring) on cloud nodes, until the
// job's time limit; a node still booting adds its group's boot time.
std::optional<double> running_node_cost_bound(const Job& job, const NodeGroup& group, bool booting, Time now);

// A node up or booting with no job on it: the rest of its boot, then the
// idle time until Slurm suspends it (SuspendTime; std::nullopt = never).
std::optional<double> idle_node_cost_bound(const NodeGroup& group, Seconds boot_left,
                                           std::optional<Seconds> suspend_time);

} // namespace burst

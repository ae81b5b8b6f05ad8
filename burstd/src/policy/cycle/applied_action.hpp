#pragma once
// How an action that took effect shows in the next snapshot: the state the
// chain's later links of the same cycle decide on.  burstd's sink and
// burstsim's snapshot replay leave it so; burstsim's engine keeps its state
// as the site is, which comes to the same.

#include "model/cluster_state.hpp"
#include "policy/decision.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace burst {

// The powered-down nodes of `group` Slurm would resume now, in the group's
// order: without an open instance (one still terminating keeps its node) and
// not drained (a fenced group's, or an administrator's).
std::vector<std::string> resumable_nodes(const NodeGroup& group, std::size_t count, const ClusterState& state);

// A route adds the group's partition to the job's, an unroute takes it away,
// a hire shows the nodes it resumes (`resumed`, or else the first resumable
// ones) powering up, a release drains its nodes (powers the idle ones down
// without drain_first), a thread count sets the job's CPUs.
void reflect_applied(const Action& action, ClusterState& state, const std::vector<std::string>& resumed = {});

} // namespace burst

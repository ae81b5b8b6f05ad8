#pragma once
// The bucket count of each node group in one cluster state: the work a
// warm cloud node could serve, embedded first fit increasing in the groups'
// node shapes (bucket_embedding.hpp).  That work is what runs in a group
// now and what waits that may burst (not held, not --burst=never, asking
// for nothing no group has): the nodes the site would need up in the
// cloud to run it all at once.  Local work is not counted.
//
// Read from the ClusterState a decision cycle sees, so burstd counts the
// plugin's snapshots and burstsim its replay the same way.

#include "model/cluster_state.hpp"
#include "policy/warm/buckets/bucket_embedding.hpp"
#include "policy/warm/buckets/resource_vector.hpp"

#include <cstdint>
#include <vector>

namespace burst {

// Per group of `state.groups`, in that order: its count rounded up to
// whole nodes.
std::vector<std::uint32_t> cloud_demand_buckets(const ClusterState& state, const ResourceOrder& order);

} // namespace burst

#pragma once
// The bucket count of each node group in one cluster state: the work a
// warm cloud node could serve, embedded first fit increasing in the groups'
// node shapes (bucket_embedding.hpp).  That work is what runs in a group
// now and what waits that may burst (not held, not --burst=never, asking
// for nothing no group has): the nodes the site would need up in the
// cloud to run it all at once, but never more than the group has (a
// backlog the group could not hold is no warm pool's to foresee).  Local
// work is not counted.
//
// Read from the ClusterState and SiteView a decision cycle sees
// (DecisionCycle::count_buckets): burstsim's replay counts its cycles so,
// and burstd would count its own the same way, though it does not yet.

#include "model/cluster_state.hpp"
#include "policy/site/site_view.hpp"
#include "policy/warm/buckets/resource_vector.hpp"

#include <cstdint>
#include <vector>

namespace burst {

// Per group of `view.groups`, in that order: its count in whole nodes, at
// most the group's capacity.  A group's memory is not stated when its
// nodes give none, or 1 MB: Slurm's RealMemory default, which a cloud
// node's slurm.conf line often leaves.
std::vector<std::uint32_t> cloud_demand_buckets(const SiteView& view, const ResourceOrder& order);

} // namespace burst

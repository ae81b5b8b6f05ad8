#pragma once
// Everything a policy may look at in one decision: the latest snapshot, the
// configured node groups, burstd's own instances and the boots it measured.
// Built by burstd from the plugin's snapshot plus its ledger, and by burstsim
// from its simulated site; policies cannot tell the two apart.

#include "model/billed_span.hpp"
#include "model/clock.hpp"
#include "model/instance.hpp"
#include "model/node_boot.hpp"
#include "model/node_group.hpp"
#include "model/snapshot.hpp"
#include "model/standby_jobs.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace burst {

struct ClusterState {
    Snapshot snapshot; // without standby jobs: policies see real work only
    StandbyJobs standby;
    std::vector<NodeGroup> groups;
    std::vector<Instance> instances;
    // The last kRecentBoots plausible boots of each group, whether their
    // instances are still open or not, in no particular order: burstd reads
    // them from its ledger, so what was measured outlives the instances and
    // a restart of burstd.
    std::vector<NodeBoot> boots;
    // Instances that have ended (not in `instances`) but are still billed:
    // powered down within MinBilled or a begun hour, they cost to its end.
    std::vector<BilledSpan> ended_but_billed;
    // Groups that may not hire freely now (their launches keep failing) ->
    // how many more nodes they may hire; absent groups are unlimited.
    std::map<std::string, std::uint32_t> hire_limits;
    // Nonzero when the builder of the state vouches for its node layout:
    // states with the same nonzero value list the same nodes in the same
    // order in `snapshot.nodes` and in each group's `nodes`.  burstsim draws
    // a new value (new_node_layout) whenever it lists a node; burstd leaves
    // 0, and readers then compare the names (NodeGroupIndex).  Whoever
    // changes the nodes of a copy draws a new value for it, or sets 0.
    std::uint64_t node_layout = 0;

    const NodeGroup* group(const std::string& name) const
    {
        for (const auto& g : groups)
            if (g.name == name)
                return &g;
        return nullptr;
    }
};

// A node layout value no state of this process had before; thread-safe.
std::uint64_t new_node_layout();

} // namespace burst

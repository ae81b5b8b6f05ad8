#pragma once
// Which node group each node of a snapshot belongs to, kept from one
// decision to the next.  A snapshot mostly lists the same nodes in the same
// order as the one before: checking a node's name against the last answer
// costs a comparison where finding it among the groups' nodes costs a hash,
// and a site of thousands of local nodes asks at every decision.  A state
// whose builder vouches for the same layout as the last call's
// (ClusterState::node_layout: burstsim's) costs nothing.

#include "model/cluster_state.hpp"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace burst {

class NodeGroupIndex {
public:
    // Per node of state.snapshot.nodes, in order: the index of the first
    // group in state.groups that lists it, or -1.  Valid until the next call.
    const std::vector<int>& of(const ClusterState& state);

private:
    std::vector<std::vector<std::string>> group_nodes_; // the lists by_name_ was built from
    std::unordered_map<std::string, int> by_name_;
    std::vector<std::string> names_; // the snapshot's node names at the last call
    std::vector<int> groups_;        // their answers
    std::uint64_t layout_ = 0;       // ClusterState::node_layout at the last call
};

} // namespace burst

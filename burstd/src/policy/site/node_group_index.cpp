#include "policy/site/node_group_index.hpp"

namespace burst {

const std::vector<int>& NodeGroupIndex::of(const ClusterState& state)
{
    if (state.node_layout != 0 && state.node_layout == layout_)
        return groups_;
    layout_ = state.node_layout;
    bool same_groups = group_nodes_.size() == state.groups.size();
    for (std::size_t g = 0; same_groups && g < state.groups.size(); ++g)
        same_groups = group_nodes_[g] == state.groups[g].nodes;
    if (!same_groups) {
        group_nodes_.clear();
        by_name_.clear();
        for (std::size_t g = 0; g < state.groups.size(); ++g) {
            group_nodes_.push_back(state.groups[g].nodes);
            for (const auto& name : state.groups[g].nodes)
                by_name_.emplace(name, int(g));
        }
        names_.clear();
    }
    const auto& nodes = state.snapshot.nodes;
    names_.resize(nodes.size());
    groups_.resize(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        // An empty name is never a node's: the first call looks every node up.
        if (names_[i] == nodes[i].name && !names_[i].empty())
            continue;
        names_[i] = nodes[i].name;
        const auto it = by_name_.find(nodes[i].name);
        groups_[i] = it == by_name_.end() ? -1 : it->second;
    }
    return groups_;
}

} // namespace burst

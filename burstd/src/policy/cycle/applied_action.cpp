#include "policy/cycle/applied_action.hpp"

#include "policy/site/site_view.hpp"

#include <algorithm>
#include <type_traits>
#include <unordered_set>

namespace burst {
namespace {

Job* find_job(ClusterState& state, JobId id)
{
    for (auto& j : state.snapshot.jobs)
        if (j.id == id)
            return &j;
    return nullptr;
}

void mark_nodes(ClusterState& state, const std::vector<std::string>& names, std::uint32_t set, std::uint32_t clear)
{
    const std::unordered_set<std::string> wanted(names.begin(), names.end());
    for (auto& n : state.snapshot.nodes)
        if (wanted.count(n.name))
            n.flags = (n.flags & ~clear) | set;
}

} // namespace

std::vector<std::string> resumable_nodes(const NodeGroup& group, std::size_t count, const ClusterState& state)
{
    std::unordered_set<std::string> instanced;
    for (const auto& i : state.instances)
        instanced.insert(i.node);
    std::vector<std::string> picked;
    for (const auto& name : group.nodes) {
        if (picked.size() >= count)
            break;
        auto n = std::find_if(state.snapshot.nodes.begin(), state.snapshot.nodes.end(),
                              [&](const Node& x) { return x.name == name; });
        if (n != state.snapshot.nodes.end() && n->has(kNodePoweredDown) && !n->has(kNodePoweringUp) &&
            !n->has(kNodeDrain) && !instanced.count(name))
            picked.push_back(name);
    }
    return picked;
}

void reflect_applied(const Action& action, ClusterState& state, const std::vector<std::string>& resumed)
{
    std::visit(
        [&](const auto& what) {
            using T = std::decay_t<decltype(what)>;
            if constexpr (std::is_same_v<T, RouteToCloud> || std::is_same_v<T, UnrouteJob>) {
                const NodeGroup* g = state.group(what.group);
                Job* job = find_job(state, what.job);
                if (!g || !job)
                    return;
                std::vector<std::string> parts;
                for (const auto& p : job->partitions)
                    if (p != group_partition(*g))
                        parts.push_back(p);
                if constexpr (std::is_same_v<T, RouteToCloud>)
                    parts.push_back(group_partition(*g));
                job->partitions = PartitionSet(parts);
            } else if constexpr (std::is_same_v<T, HireNodes>) {
                const NodeGroup* g = state.group(what.group);
                if (!g)
                    return;
                mark_nodes(state, resumed.empty() ? resumable_nodes(*g, what.count, state) : resumed,
                           kNodePoweringUp, kNodePoweredDown);
            } else if constexpr (std::is_same_v<T, ReleaseNodes>) {
                if (what.drain_first) {
                    mark_nodes(state, what.nodes, kNodeDrain, 0);
                    return;
                }
                std::vector<std::string> idle;
                for (const auto& n : state.snapshot.nodes)
                    if (n.alloc_cpus == 0 && std::find(what.nodes.begin(), what.nodes.end(), n.name) != what.nodes.end())
                        idle.push_back(n.name);
                mark_nodes(state, what.nodes, kNodeDrain, 0);
                mark_nodes(state, idle, kNodePoweringDown, 0);
            } else if constexpr (std::is_same_v<T, SetJobThreads>) {
                if (Job* job = find_job(state, what.job)) {
                    job->cpus = what.cpus;
                    job->cpus_per_task = what.cpus_per_task;
                }
            }
        },
        action.what);
}

} // namespace burst

#include "model/standby_jobs.hpp"

#include <algorithm>
#include <unordered_map>

namespace burst {

namespace {

void free_node(Node& node, std::uint32_t cpus, std::uint64_t memory_mb)
{
    node.alloc_cpus -= std::min(node.alloc_cpus, cpus);
    node.alloc_memory_mb -= std::min(node.alloc_memory_mb, memory_mb);
    if (node.base == NodeBaseState::Allocated || node.base == NodeBaseState::Mixed)
        node.base = node.alloc_cpus == 0 ? NodeBaseState::Idle : NodeBaseState::Mixed;
}

} // namespace

StandbyJobs set_aside_standby_jobs(Snapshot& snapshot, const StandbyQos& qos)
{
    StandbyJobs standby;
    if (qos.placeholder.empty() && qos.scavenger.empty() && qos.interactive_hold.empty())
        return standby;
    std::unordered_map<std::string, Node*> nodes;
    for (auto& n : snapshot.nodes)
        nodes.emplace(n.name, &n);
    auto kept = std::stable_partition(snapshot.jobs.begin(), snapshot.jobs.end(), [&](const Job& job) {
        return job.qos.empty() ||
               (job.qos != qos.placeholder && job.qos != qos.scavenger && job.qos != qos.interactive_hold);
    });
    for (auto it = kept; it != snapshot.jobs.end(); ++it) {
        if (it->qos == qos.interactive_hold) {
            standby.interactive_holds.push_back(std::move(*it));
            continue;
        }
        const bool placeholder = it->qos == qos.placeholder;
        if (it->running() && !it->nodes.empty()) {
            const bool whole_node = placeholder && it->name == kPlaceholderName;
            const auto share = std::uint32_t(it->nodes.size());
            for (std::uint32_t i = 0; i < share; ++i) {
                auto n = nodes.find(it->nodes[i]);
                if (n == nodes.end())
                    continue;
                // An even share, the remainder on the first nodes: all of it comes back.
                const std::uint32_t cpus = it->cpus / share + (i < it->cpus % share ? 1 : 0);
                const std::uint64_t memory = it->memory_mb / share + (i < it->memory_mb % share ? 1 : 0);
                free_node(*n->second, whole_node ? n->second->cpus : cpus,
                          whole_node ? n->second->memory_mb : memory);
            }
        }
        (placeholder ? standby.placeholders : standby.scavengers).push_back(std::move(*it));
    }
    snapshot.jobs.erase(kept, snapshot.jobs.end());
    return standby;
}

} // namespace burst

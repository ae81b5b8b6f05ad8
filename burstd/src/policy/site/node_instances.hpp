#pragma once
// burstd's open instances by the node each backs: when a cloud node was
// launched and when it came up, for the rules that turn on a node's uptime
// (its billing boundary, the end of its boot).  pfa's release order,
// forecast's idle retention and the clairvoyant reference read it.

#include "model/clock.hpp"
#include "model/instance.hpp"

#include <string>
#include <unordered_map>
#include <vector>

namespace burst {

class NodeInstances {
public:
    // `instances` must outlive this.  The index is built at the first
    // lookup: most decisions never ask.
    explicit NodeInstances(const std::vector<Instance>& instances) : instances_(instances) {}

    // The open instance backing `node`, or nullptr: a node burstd did not
    // launch, or whose instance has ended.  A node Slurm resumes again while
    // its last instance is still being terminated has two open ones: the
    // one requested last backs it.
    const Instance* find(const std::string& node)
    {
        if (!indexed_) {
            for (const auto& inst : instances_)
                if (inst.open()) {
                    auto [it, fresh] = by_node_.emplace(inst.node, &inst);
                    if (!fresh && inst.requested_at > it->second->requested_at)
                        it->second = &inst;
                }
            indexed_ = true;
        }
        auto it = by_node_.find(node);
        return it != by_node_.end() ? it->second : nullptr;
    }

    // How long `node` has been billed at `now`: since its instance was
    // requested.  A node burstd did not launch is taken as just launched.
    Seconds uptime(const std::string& node, Time now)
    {
        const Instance* inst = find(node);
        return now - (inst ? inst->requested_at : now);
    }

private:
    const std::vector<Instance>& instances_;
    std::unordered_map<std::string, const Instance*> by_node_;
    bool indexed_ = false;
};

} // namespace burst

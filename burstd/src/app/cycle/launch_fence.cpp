#include "app/cycle/launch_fence.hpp"

#include <algorithm>

namespace burst {

namespace {

// Slurm could resume it for a job if it were not drained.
bool resumable(const Node& n)
{
    return n.has(kNodePoweredDown) && !n.has(kNodePoweringUp) && !n.has(kNodePoweringDown);
}

// A provider's error text can be long or multi-line; sinfo -R shows one line.
std::string reason_text(std::string why)
{
    std::replace(why.begin(), why.end(), '\n', ' ');
    const std::size_t max = 200 - kFenceReasonPrefix.size();
    if (why.size() > max)
        why = why.substr(0, max - 3) + "...";
    return std::string(kFenceReasonPrefix) + why;
}

} // namespace

FencePlan LaunchFence::plan(const std::vector<NodeGroup>& groups, const std::vector<Node>& nodes,
                            const std::map<std::string, std::uint32_t>& hire_limits, const Why& why)
{
    std::map<std::string, const Node*> by_name;
    for (const auto& n : nodes)
        by_name.emplace(n.name, &n);
    if (!adopted_) {
        adopted_ = true;
        for (const auto& g : groups)
            for (const auto& name : g.nodes)
                if (auto it = by_name.find(name); it != by_name.end() && it->second->has(kNodeDrain))
                    fenced_.insert(name);
    }
    FencePlan plan;
    for (const auto& g : groups) {
        std::vector<std::string> fenced_drained, free;
        for (const auto& name : g.nodes) {
            auto it = by_name.find(name);
            if (it == by_name.end())
                continue;
            const Node& n = *it->second;
            if (!n.has(kNodeDrain)) {
                fenced_.erase(name); // someone undrained it
                if (resumable(n))
                    free.push_back(name);
            } else if (fenced_.count(name)) {
                fenced_drained.push_back(name);
            }
        }
        auto limit = hire_limits.find(g.name);
        if (limit == hire_limits.end()) {
            plan.undrain.insert(plan.undrain.end(), fenced_drained.begin(), fenced_drained.end());
            continue;
        }
        const std::size_t allowed = limit->second;
        if (free.size() > allowed) {
            auto& to_drain = plan.drain[reason_text(why(g.name))];
            to_drain.insert(to_drain.end(), free.begin() + std::ptrdiff_t(allowed), free.end());
        } else {
            const std::size_t missing = std::min(allowed - free.size(), fenced_drained.size());
            plan.undrain.insert(plan.undrain.end(), fenced_drained.begin(),
                                fenced_drained.begin() + std::ptrdiff_t(missing));
        }
    }
    return plan;
}

void LaunchFence::drained(const std::vector<std::string>& nodes)
{
    fenced_.insert(nodes.begin(), nodes.end());
}

void LaunchFence::undrain_done(const std::vector<std::string>& asked)
{
    for (const auto& n : asked)
        fenced_.erase(n);
}

} // namespace burst

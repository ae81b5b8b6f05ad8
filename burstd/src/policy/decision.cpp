#include "policy/decision.hpp"


namespace burst {

std::string action_text(const Action& action)
{
    return std::visit(
        [](const auto& what) -> std::string {
            using T = std::decay_t<decltype(what)>;
            if constexpr (std::is_same_v<T, RouteToCloud>) {
                return "route job " + std::to_string(what.job) + " to group " + what.group;
            } else if constexpr (std::is_same_v<T, UnrouteJob>) {
                return "unroute job " + std::to_string(what.job) + " from group " + what.group;
            } else if constexpr (std::is_same_v<T, HireNodes>) {
                return "hire " + std::to_string(what.count) + " node(s) of " + what.group;
            } else if constexpr (std::is_same_v<T, ReleaseNodes>) {
                std::string nodes;
                for (const auto& n : what.nodes)
                    nodes += (nodes.empty() ? "" : ",") + n;
                return std::string(what.drain_first ? "drain and power down " : "power down ") + nodes;
            } else if constexpr (std::is_same_v<T, SetJobThreads>) {
                return "job " + std::to_string(what.job) + ": " + std::to_string(what.cpus_per_task) +
                       " cpus per task, " + std::to_string(what.cpus) + " cpus";
            } else {
                return "keep " + std::to_string(what.count) + " placeholder job(s) for " + what.group;
            }
        },
        action.what);
}

} // namespace burst

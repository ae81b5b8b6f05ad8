#include "app/config/node_group_zones.hpp"

#include <algorithm>

namespace burst {

std::vector<std::string> zones_outside_provider(const NodeGroup& group, const Provider& provider)
{
    const std::vector<std::string> known = provider.zones();
    std::string list;
    for (const auto& k : known)
        list += (list.empty() ? "" : ",") + k;
    std::vector<std::string> errors;
    for (const auto& z : group.zones)
        if (std::find(known.begin(), known.end(), z) == known.end())
            errors.push_back("Zones=: zone " + z + " is not among Provider=" + group.provider + "'s Zones=" +
                             (list.empty() ? "(none)" : list));
    return errors;
}

std::vector<std::string> node_group_zone_errors(const BurstdConfig& config,
                                                const std::map<std::string, std::unique_ptr<Provider>>& providers)
{
    std::vector<std::string> errors;
    for (std::size_t i = 0; i < config.node_groups.size(); ++i) {
        const NodeGroup& g = config.node_groups[i];
        auto p = providers.find(g.provider);
        if (p == providers.end() || !p->second)
            continue;
        for (const auto& e : zones_outside_provider(g, *p->second))
            errors.push_back(config.node_group_origins[i] + ": NodeGroup=" + g.name + ": " + e);
    }
    return errors;
}

} // namespace burst

#include "policy/expander.hpp"
#include "policy/least_waste_expander.hpp"
#include "policy/policy_params.hpp"
#include "policy/price_expander.hpp"
#include "policy/priority_expander.hpp"

namespace burst {

std::uint64_t wasted_cpus(const NodeGroup& group, std::uint64_t cpus)
{
    const std::uint64_t per_node = group.cpus ? group.cpus : 1;
    const std::uint64_t nodes = (cpus + per_node - 1) / per_node;
    return nodes * per_node - cpus;
}

std::vector<std::string> expander_names()
{
    return {std::string(LeastWasteExpander::kName), std::string(PriceExpander::kName),
            std::string(PriorityExpander::kName)};
}

std::unique_ptr<Expander> make_expander(const std::string& name)
{
    if (name == LeastWasteExpander::kName)
        return std::make_unique<LeastWasteExpander>();
    if (name == PriceExpander::kName)
        return std::make_unique<PriceExpander>();
    if (name == PriorityExpander::kName)
        return std::make_unique<PriorityExpander>();
    std::string known;
    for (const auto& n : expander_names())
        known += (known.empty() ? "" : ", ") + n;
    throw PolicyConfigError("unknown expander '" + name + "' (known: " + known + ")");
}

} // namespace burst

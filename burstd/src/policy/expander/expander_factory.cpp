#include "common/config_values.hpp"
#include "policy/expander/expander.hpp"
#include "policy/expander/least_cost_expander.hpp"
#include "policy/expander/least_waste_expander.hpp"
#include "policy/policy_params.hpp"
#include "policy/expander/price_expander.hpp"
#include "policy/expander/priority_expander.hpp"

namespace burst {

std::uint64_t wasted_cpus(const NodeGroup& group, std::uint64_t cpus)
{
    const std::uint64_t per_node = group.cpus ? group.cpus : 1;
    const std::uint64_t nodes = (cpus + per_node - 1) / per_node;
    return nodes * per_node - cpus;
}

ExpansionOption list_price_option(const GroupView& group, std::uint64_t cpus)
{
    const bool warm = group.free_up_cpus >= group.routed_pending_cpus + cpus;
    return ExpansionOption{&group, group.group->price_per_cpu_second(), warm ? 0 : group.group->boot_time};
}

std::vector<std::string> expander_names()
{
    return {std::string(LeastCostExpander::kName), std::string(LeastWasteExpander::kName),
            std::string(PriceExpander::kName), std::string(PriorityExpander::kName)};
}

std::unique_ptr<Expander> make_expander(const std::string& name)
{
    if (name == LeastCostExpander::kName)
        return std::make_unique<LeastCostExpander>();
    if (name == LeastWasteExpander::kName)
        return std::make_unique<LeastWasteExpander>();
    if (name == PriceExpander::kName)
        return std::make_unique<PriceExpander>();
    if (name == PriorityExpander::kName)
        return std::make_unique<PriorityExpander>();
    throw PolicyConfigError("unknown expander '" + name + "' (known: " + joined(expander_names()) + ")");
}

} // namespace burst

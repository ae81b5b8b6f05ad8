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

const Registry<ExpanderType>& expander_registry()
{
    static const Registry<ExpanderType> registry(
        "expander",
        {
            {LeastCostExpander::kName, "the lowest of the policy's quotes; on a tie the first group",
             [] { return std::unique_ptr<Expander>(std::make_unique<LeastCostExpander>()); }},
            {LeastWasteExpander::kName, "fewest idle cores on the last node, then the lowest quote",
             [] { return std::unique_ptr<Expander>(std::make_unique<LeastWasteExpander>()); }},
            {PriceExpander::kName, "cheapest list price per core, whatever the quote; then the quote, then waste",
             [] { return std::unique_ptr<Expander>(std::make_unique<PriceExpander>()); }},
            {PriorityExpander::kName, "the first group that can take the work, in configuration order",
             [] { return std::unique_ptr<Expander>(std::make_unique<PriorityExpander>()); }},
        });
    return registry;
}

std::vector<std::string> expander_names() { return expander_registry().names(); }

std::unique_ptr<Expander> make_expander(const std::string& name)
{
    const ExpanderType* type = expander_registry().find(name);
    if (!type)
        throw PolicyConfigError(expander_registry().unknown(name));
    return type->build();
}

} // namespace burst

#include "policy/expander/least_cost_expander.hpp"

namespace burst {

const ExpansionOption* LeastCostExpander::choose(const std::vector<ExpansionOption>& options, std::uint64_t) const
{
    const ExpansionOption* best = nullptr;
    for (const ExpansionOption& o : options)
        if (!best || o.cost < best->cost)
            best = &o;
    return best;
}

} // namespace burst

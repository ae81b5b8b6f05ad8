#include "policy/expander/least_waste_expander.hpp"

namespace burst {

const ExpansionOption* LeastWasteExpander::choose(const std::vector<ExpansionOption>& options,
                                                  std::uint64_t cpus) const
{
    const ExpansionOption* best = nullptr;
    std::uint64_t best_waste = 0;
    for (const ExpansionOption& o : options) {
        const std::uint64_t waste = wasted_cpus(*o.group->group, cpus);
        if (!best || waste < best_waste || (waste == best_waste && o.cost < best->cost)) {
            best = &o;
            best_waste = waste;
        }
    }
    return best;
}

} // namespace burst

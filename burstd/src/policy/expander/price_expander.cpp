#include "policy/expander/price_expander.hpp"

namespace burst {

const ExpansionOption* PriceExpander::choose(const std::vector<ExpansionOption>& options, std::uint64_t cpus) const
{
    const ExpansionOption* best = nullptr;
    for (const ExpansionOption& o : options) {
        if (!best) {
            best = &o;
            continue;
        }
        const double price = o.group->group->price_per_cpu_second();
        const double best_price = best->group->group->price_per_cpu_second();
        if (price != best_price) {
            if (price < best_price)
                best = &o;
        } else if (o.cost != best->cost) {
            if (o.cost < best->cost)
                best = &o;
        } else if (wasted_cpus(*o.group->group, cpus) < wasted_cpus(*best->group->group, cpus)) {
            best = &o;
        }
    }
    return best;
}

} // namespace burst

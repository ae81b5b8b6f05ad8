#include "policy/price_expander.hpp"

namespace burst {

const GroupView* PriceExpander::choose(const std::vector<const GroupView*>& candidates, std::uint64_t cpus) const
{
    const GroupView* best = nullptr;
    for (const GroupView* g : candidates) {
        if (!best) {
            best = g;
            continue;
        }
        double price = g->group->price_per_cpu_second(), best_price = best->group->price_per_cpu_second();
        if (price < best_price ||
            (price == best_price && wasted_cpus(*g->group, cpus) < wasted_cpus(*best->group, cpus)))
            best = g;
    }
    return best;
}

} // namespace burst

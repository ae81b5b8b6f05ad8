#include "policy/least_waste_expander.hpp"

namespace burst {

const GroupView* LeastWasteExpander::choose(const std::vector<const GroupView*>& candidates,
                                            std::uint64_t cpus) const
{
    const GroupView* best = nullptr;
    for (const GroupView* g : candidates) {
        if (!best) {
            best = g;
            continue;
        }
        auto waste = wasted_cpus(*g->group, cpus), best_waste = wasted_cpus(*best->group, cpus);
        if (waste < best_waste ||
            (waste == best_waste && g->group->price_per_cpu_second() < best->group->price_per_cpu_second()))
            best = g;
    }
    return best;
}

} // namespace burst

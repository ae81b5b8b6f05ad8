#include "policy/waiting_cost_gate.hpp"

#include <algorithm>
#include <cmath>

namespace burst {

bool WaitingCostGate::off() const
{
    return std::isinf(lambda_);
}

std::uint32_t WaitingCostGate::worth(const NodeGroup& group, std::uint32_t nodes, std::uint64_t cores,
                                     Seconds wait) const
{
    if (off())
        return nodes;
    const std::uint64_t per_node = group.cpus ? group.cpus : 1;
    const double node_cost = group.price_per_hour * std::max(group.min_billed, wait);
    std::uint32_t hired = 0;
    for (std::uint64_t taken = 0; hired < nodes && taken < cores; ++hired) {
        const std::uint64_t c = std::min(per_node, cores - taken);
        if (!(lambda_ * double(c) * wait > node_cost))
            break;
        taken += c;
    }
    return hired;
}

} // namespace burst

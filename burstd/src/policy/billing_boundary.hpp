#pragma once
// When keeping a cloud node up starts costing again: what its provider has
// already billed is paid whether the node is used or not.

#include "model/clock.hpp"
#include "model/node_group.hpp"

#include <algorithm>
#include <cmath>

namespace burst {

// Seconds until an instance up for `uptime` starts another billed period:
// per-hour billing charges whole hours from launch; per-second billing only
// the minimum.
inline Seconds to_billing_boundary(const NodeGroup& g, Seconds uptime)
{
    if (g.billing == Billing::PerHour)
        return 3600 - std::fmod(std::max<Seconds>(0, uptime), 3600);
    return std::max<Seconds>(0, g.min_billed - uptime);
}

} // namespace burst

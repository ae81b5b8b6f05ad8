#pragma once
// What a cloud node's provider bills for its uptime, and when keeping it up
// starts costing again: what is already billed is paid whether the node is
// used or not.  One rule for the simulator's bill and the policies' quotes.

#include "model/clock.hpp"
#include "model/node_group.hpp"

#include <algorithm>
#include <cmath>

namespace burst {

// Seconds billed for an instance up for `up`: at least MinBilled, and with
// per-hour billing every hour begun.
inline Seconds billed_seconds(const NodeGroup& g, Seconds up)
{
    const Seconds billed = std::max(up, g.min_billed);
    return g.billing == Billing::PerHour ? std::ceil(billed / 3600) * 3600 : billed;
}

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

#pragma once
// The time a cloud instance costs money, as spend is counted (SpendTracker):
// from its launch to its end, or on while it still runs.  burstd takes it
// from the ledger, burstsim from its simulated instances.

#include "model/clock.hpp"

#include <optional>
#include <string>

namespace burst {

struct BilledSpan {
    std::string node;
    std::string node_group;
    Time from = 0;
    std::optional<Time> until; // std::nullopt = still billed
};

} // namespace burst

#pragma once
// How a node group backs off when its launches keep failing (burstd.conf
// NodeGroup= keys CapacityErrors, CoolDown, MaxCoolDown, QuotaCoolDown,
// BootFailures; see burstd.conf(5)).

#include "model/clock.hpp"

#include <cstdint>

namespace burst {

struct GroupRecovery {
    std::uint32_t capacity_errors = 3; // launches failing for capacity in a row -> stop hiring (circuit open)
    Seconds cool_down = 60;            // first wait before one probe launch; doubles per failed probe
    Seconds max_cool_down = 1800;      // the doubling stops here
    Seconds quota_cool_down = 3600;    // wait after a quota error before probing
    std::uint32_t boot_failures = 3;   // launched instances never registering in a row -> protected mode
};

} // namespace burst

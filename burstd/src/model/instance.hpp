#pragma once
// A cloud instance burstd asked for, as the ledger records it and policies see it.

#include "model/clock.hpp"

#include <string>

namespace burst {

enum class InstanceState {
    Requested,   // written to the ledger, provider call not yet answered
    Launching,   // provider accepted; node not yet registered with Slurm
    Running,     // node registered
    Terminating, // terminate asked for
    Terminated,
    Failed,
};

// When an instance's bill starts, as SpendTracker counts it: the launch, or
// the request while the launch's answer is not known (launched_at 0).
inline Time billing_start(Time requested_at, Time launched_at)
{
    return launched_at > 0 ? launched_at : requested_at;
}

struct Instance {
    std::string node;        // Slurm node name it backs
    std::string node_group;
    std::string provider_id; // provider's own instance id; empty until known
    std::string instance_type;
    InstanceState state = InstanceState::Requested;
    Time requested_at = 0;
    Time launched_at = 0; // the provider took the launch and bills from here; 0 = not known yet
    Time running_since = 0;
    bool spot = false;

    Time billed_since() const { return billing_start(requested_at, launched_at); }

    // Not ended: it still backs its node, and is billed.
    bool open() const { return state != InstanceState::Terminated && state != InstanceState::Failed; }
};

} // namespace burst

#pragma once
// Jobs that are never demand: placeholders, which burstd submits to hold
// warm cloud nodes up, scavenger work, which only fills idle cores, and
// interactive holds, which keep cores of a partition for interactive jobs.
// burstd.conf names the QOS of each (PlaceholderQOS=, ScavengerQOS=,
// InteractiveHoldQOS=), so no policy may hire or route for them.  A real
// job takes the nodes of placeholders and scavengers whenever it needs them
// (burstd cancels the placeholder, Slurm preempts the scavenger): their
// cores count as free.  Only interactive jobs take the cores of interactive
// holds: those stay busy for every policy.

#include "model/job.hpp"
#include "model/snapshot.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace burst {

// Every placeholder burstd submits has this job name.
inline constexpr const char* kPlaceholderName = "burst-placeholder";
// And every interactive hold this one.
inline constexpr const char* kInteractiveHoldName = "burst-interactive-hold";

struct StandbyQos {
    std::string placeholder;      // "" = none
    std::string scavenger;        // "" = none
    std::string interactive_hold; // "" = none
};

// One entry of burstd.conf's Interactive=: keep `cores` of `partition`
// held for interactive jobs.
struct InteractiveReserve {
    std::string partition;
    std::uint32_t cores = 0;
};

struct StandbyJobs {
    std::vector<Job> placeholders;
    std::vector<Job> scavengers;
    std::vector<Job> interactive_holds;
};

// Moves the snapshot's standby jobs out of its job list, and gives the
// nodes placeholders and scavengers run on back what they hold: burstd's
// placeholders (one whole node each, --exclusive) their node entirely, any
// other such job its CPUs and memory shared evenly over its nodes.  Every
// policy then sees those cores as free, and those of interactive holds as
// busy.
StandbyJobs set_aside_standby_jobs(Snapshot& snapshot, const StandbyQos& qos);

} // namespace burst

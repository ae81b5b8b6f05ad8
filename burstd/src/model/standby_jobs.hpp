#pragma once
// Jobs that are never demand: placeholders, which burstd submits to hold
// warm cloud nodes up, and scavenger work, which only fills idle cores.
// burstd.conf names the QOS of each (PlaceholderQOS=, ScavengerQOS=); a
// real job takes their nodes whenever it needs them (burstd cancels the
// placeholder, Slurm preempts the scavenger), so no policy may hire or
// route for them, nor count the cores they hold as busy.

#include "model/job.hpp"
#include "model/snapshot.hpp"

#include <string>
#include <vector>

namespace burst {

// Every placeholder burstd submits has this job name.
inline constexpr const char* kPlaceholderName = "burst-placeholder";

struct StandbyQos {
    std::string placeholder; // "" = none
    std::string scavenger;   // "" = none
};

struct StandbyJobs {
    std::vector<Job> placeholders;
    std::vector<Job> scavengers;
};

// Moves the snapshot's standby jobs out of its job list, and gives the
// nodes they run on back what they hold: burstd's placeholders (one whole
// node each, --exclusive) their node entirely, any other standby job its
// CPUs and memory shared evenly over its nodes.  Every policy then sees
// those cores as free.
StandbyJobs set_aside_standby_jobs(Snapshot& snapshot, const StandbyQos& qos);

} // namespace burst

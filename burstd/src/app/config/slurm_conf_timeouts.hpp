#pragma once
// The few slurm.conf values burstd needs to judge Slurm's node states during
// reconciliation, and to bound what an idle cloud node costs (budget cap),
// read from the file itself so they work while slurmctld is down; and the
// partitions' MaxTime, which burstsim --config replays (burstd has it from
// the snapshot).

#include "model/clock.hpp"

#include <map>
#include <optional>
#include <string>

namespace burst {

struct SlurmConfTimeouts {
    Seconds resume_timeout = 60; // Slurm's default
    // How long an idle node stays up before Slurm suspends it; std::nullopt
    // = never (NONE, INFINITE or -1, Slurm's default).  A partition line's
    // SuspendTime= (PartitionName=DEFAULT's for the lines after it) applies
    // to its nodes instead.
    std::optional<Seconds> suspend_time;
    std::map<std::string, std::optional<Seconds>> partition_suspend_time;
    // A partition line's MaxTime= (PartitionName=DEFAULT's for the lines
    // after it), 0 for UNLIMITED or INFINITE; a value that cannot be read is
    // left out and named in max_time_error (burstd takes MaxTime from the
    // snapshot, so only burstsim warns of it).
    std::map<std::string, Seconds> partition_max_time;
    std::string max_time_error;
    std::string error;           // "slurm.conf:12: ResumeTimeout=abc: expected seconds"; empty when fine

    std::optional<Seconds> suspend_time_of(const std::string& partition) const;
};

// Unreadable files and absent keys keep the defaults (error says why for the former).
SlurmConfTimeouts read_slurm_conf_timeouts(const std::string& path);

} // namespace burst

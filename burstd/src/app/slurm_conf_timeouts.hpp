#pragma once
// The few slurm.conf values burstd needs to judge Slurm's node states during
// reconciliation, read from the file itself so they work while slurmctld is down.

#include "model/clock.hpp"

#include <string>

namespace burst {

struct SlurmConfTimeouts {
    Seconds resume_timeout = 60; // Slurm's default
    std::string error;           // "slurm.conf:12: ResumeTimeout=abc: expected seconds"; empty when fine
};

// Unreadable files and absent keys keep the defaults (error says why for the former).
SlurmConfTimeouts read_slurm_conf_timeouts(const std::string& path);

} // namespace burst

#pragma once
// Parity of burstd's and burstsim's decision cycles on one recorded stream of
// the plugin's messages: burstd's PolicyCycle (state from the snapshot, its
// ledger and the configuration; actions through a recording Slurm actuator)
// against burstsim's snapshot replay (sim/replay), both built from the same
// burstd.conf.  Both run one cycle per snapshot at the snapshot's time, and
// hear every job end between cycles.

#include <string>
#include <vector>

namespace burst::parity {

struct Report {
    std::size_t snapshots = 0;
    std::size_t job_ends = 0;
    // "seq N: policy: action: reason", in the order each side applied them.
    std::vector<std::string> burstd;
    std::vector<std::string> burstsim;
    std::string error; // the recording or the configuration could not be read
};

// `slurm_conf` stands in for the configuration's SlurmConf= (the recorded
// cluster's may be gone); "" reads the configuration's own.
Report compare_recording(const std::string& recording, const std::string& burstd_conf,
                         const std::string& slurm_conf = "");

// The first line where the two sides differ, or "" when they agree.
std::string first_difference(const Report& report);

} // namespace burst::parity

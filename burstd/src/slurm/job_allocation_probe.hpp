#pragma once
// Where Slurm has put one job so far: what burstd reads back after making a
// job cloud-eligible, to launch the CLOUD nodes Slurm allocated to it without
// waiting for slurmctld's power-save thread (which wakes once a second) to
// call ResumeProgram.

#include "model/job.hpp"

#include <string>
#include <vector>

namespace burst {

struct JobAllocation {
    enum class Phase {
        Pending,     // not allocated yet
        Configuring, // allocated; waiting for nodes to power up (or for its prolog)
        Started,     // allocated and running (or already past that)
        Gone,        // unknown to slurmctld, or the query failed (see `error`)
    };
    Phase phase = Phase::Gone;
    std::vector<std::string> nodes;              // allocated nodes (Configuring, Started)
    std::vector<std::string> powered_down_nodes; // those of `nodes` Slurm still has to resume
    std::string error;                           // why the query failed; empty otherwise
    std::string qos;                             // its QOS, whatever the phase but Gone
};

class JobAllocationProbe {
public:
    virtual ~JobAllocationProbe() = default;
    // Blocks for one or two RPCs to slurmctld; safe to call from any thread.
    virtual JobAllocation probe(JobId job) = 0;
};

} // namespace burst

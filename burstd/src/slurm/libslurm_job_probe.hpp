#pragma once
// JobAllocationProbe over libslurm (slurm_load_job, slurm_load_node_single).
// Needs libslurm initialised (LibslurmActuator does it for the process).

#include "slurm/job_allocation_probe.hpp"

namespace burst {

class LibslurmJobProbe final : public JobAllocationProbe {
public:
    JobAllocation probe(JobId job) override;
};

} // namespace burst

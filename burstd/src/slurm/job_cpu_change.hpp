#pragma once
// A new CPU shape for a pending job, checked before it reaches Slurm: Slurm
// accepts impossible values silently and the job then pends forever with
// BadConstraints.  Only validated() makes one, so the actuator can never be
// handed an unchecked shape.

#include "model/job.hpp"
#include "model/node.hpp"

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace burst {

class JobCpuChangeError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

class JobCpuChange {
public:
    // `eligible` are the nodes the job may run on (its partitions' nodes,
    // CLOUD ones included).  Throws JobCpuChangeError saying why the shape
    // cannot run: job not pending, zero counts, a task wider than every node,
    // or more tasks than the job's node count of eligible nodes hold.
    static JobCpuChange validated(const Job& job, std::uint32_t num_tasks, std::uint32_t cpus_per_task,
                                  const std::vector<Node>& eligible);

    JobId job() const { return job_; }
    std::uint32_t num_tasks() const { return num_tasks_; }
    std::uint32_t cpus_per_task() const { return cpus_per_task_; }
    // Slurm does not recompute the total from cpus_per_task: it is set explicitly.
    std::uint32_t min_cpus() const { return num_tasks_ * cpus_per_task_; }

private:
    JobCpuChange(JobId job, std::uint32_t tasks, std::uint32_t cpt)
        : job_(job), num_tasks_(tasks), cpus_per_task_(cpt)
    {
    }
    JobId job_;
    std::uint32_t num_tasks_;
    std::uint32_t cpus_per_task_;
};

} // namespace burst

#include "slurm/job_cpu_change.hpp"

#include <algorithm>
#include <string>

namespace burst {

JobCpuChange JobCpuChange::validated(const Job& job, std::uint32_t num_tasks, std::uint32_t cpus_per_task,
                                     const std::vector<Node>& eligible)
{
    std::string id = "job " + std::to_string(job.id);
    if (!job.pending())
        throw JobCpuChangeError(id + " is not pending: Slurm refuses CPU changes once it started");
    if (num_tasks == 0 || cpus_per_task == 0)
        throw JobCpuChangeError(id + ": num_tasks and cpus_per_task must be at least 1");
    if (static_cast<std::uint64_t>(num_tasks) * cpus_per_task > 0xfffffffeULL)
        throw JobCpuChangeError(id + ": " + std::to_string(num_tasks) + " x " + std::to_string(cpus_per_task) +
                                " CPUs overflows Slurm's CPU count");
    if (cpus_per_task > 0xfffe)
        throw JobCpuChangeError(id + ": cpus_per_task " + std::to_string(cpus_per_task) +
                                " exceeds Slurm's 16-bit field");
    std::uint32_t widest = 0;
    std::uint64_t task_slots = 0;
    for (const auto& n : eligible) {
        widest = std::max(widest, n.cpus);
        task_slots += n.cpus / cpus_per_task; // a task never spans nodes
    }
    if (cpus_per_task > widest)
        throw JobCpuChangeError(id + ": " + std::to_string(cpus_per_task) +
                                " CPUs per task, but the widest eligible node has " + std::to_string(widest));
    if (num_tasks > task_slots)
        throw JobCpuChangeError(id + ": " + std::to_string(num_tasks) + " tasks of " +
                                std::to_string(cpus_per_task) + " CPUs, but the eligible nodes hold only " +
                                std::to_string(task_slots));
    return JobCpuChange(job.id, num_tasks, cpus_per_task);
}

} // namespace burst

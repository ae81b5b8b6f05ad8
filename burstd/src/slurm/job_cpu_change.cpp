#include "slurm/job_cpu_change.hpp"

#include <algorithm>
#include <functional>
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
    // burstd never changes the node count, and Slurm answers "Requested
    // partition configuration not available now" (while applying the change
    // anyway) when the tasks do not fit the job's node count: count the task
    // slots of the job's node count widest eligible nodes.
    std::vector<std::uint32_t> cpus;
    for (const auto& n : eligible)
        cpus.push_back(n.cpus);
    std::sort(cpus.begin(), cpus.end(), std::greater<>());
    std::uint32_t widest = cpus.empty() ? 0 : cpus.front();
    if (cpus_per_task > widest)
        throw JobCpuChangeError(id + ": " + std::to_string(cpus_per_task) +
                                " CPUs per task, but the widest eligible node has " + std::to_string(widest));
    std::size_t nodes = std::min<std::size_t>(std::max<std::uint32_t>(job.node_count, 1), cpus.size());
    std::uint64_t task_slots = 0;
    for (std::size_t i = 0; i < nodes; ++i)
        task_slots += cpus[i] / cpus_per_task; // a task never spans nodes
    if (num_tasks > task_slots)
        throw JobCpuChangeError(id + ": " + std::to_string(num_tasks) + " tasks of " +
                                std::to_string(cpus_per_task) + " CPUs, but " + std::to_string(nodes) +
                                " eligible node(s) (the job's node count) hold only " +
                                std::to_string(task_slots));
    return JobCpuChange(job.id, num_tasks, cpus_per_task);
}

} // namespace burst

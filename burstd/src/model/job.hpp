#pragma once
// A Slurm job as burstd and burstsim see it: the fields the exporter sends
// (see DESIGN.md, snapshot protocol), in Slurm's units.

#include "clock.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace burst {

using JobId = std::uint32_t;

enum class JobState { Pending, Running, Suspended, Completing };

// The user's opt-in to the cloud (sbatch --burst=, or a burst: tag in --comment).
enum class BurstOption { Never, Allow, Prefer };

// sbatch --threads=N|auto.  `automatic` lets burstd choose per job; `count` is a
// fixed request (0 when the user gave neither).
struct ThreadOption {
    bool automatic = false;
    std::uint32_t count = 0;
};

struct Job {
    JobId id = 0;
    // A pending array is one record standing for this many not-yet-started tasks.
    std::uint32_t array_task_count = 1;
    std::string user;
    std::string account;
    std::vector<std::string> partitions;
    std::string qos;
    std::string name;
    // Stable key shared by repeated runs of the same pipeline stage (account,
    // job name, batch command); runtime models are learned per category.
    std::string category;
    JobState state = JobState::Pending;
    std::string reason; // Slurm's pending reason, e.g. "Resources", "Priority"
    std::uint32_t priority = 0;
    Time submit_time = 0;
    Time eligible_time = 0;
    Time start_time = 0;          // 0 while pending
    Seconds time_limit = 0;       // 0 = no limit
    std::uint32_t node_count = 1; // requested (pending) or allocated (running)
    std::uint32_t cpus = 1;       // total over all nodes
    std::uint32_t cpus_per_task = 1;
    std::uint64_t memory_mb = 0;  // total over all nodes; 0 = unspecified
    std::string gres;
    std::string features;
    std::string dependency;
    std::vector<std::string> nodes; // allocated nodes (running jobs)
    BurstOption burst = BurstOption::Allow;
    ThreadOption threads;

    bool pending() const { return state == JobState::Pending; }
    bool running() const { return state == JobState::Running || state == JobState::Completing; }
    // Core demand of the record, counting every task of a pending array.
    std::uint64_t total_cpus() const { return std::uint64_t(cpus) * array_task_count; }
    // Held back until other jobs end (Slurm's pending reasons Dependency and
    // DependencyNeverSatisfied): not demand a node could serve now.
    bool awaiting_dependency() const
    {
        return pending() && reason.compare(0, 10, "Dependency") == 0;
    }
};

// A finished job as reported by the exporter's job_end event (and by traces):
// what runtime and thread-count models learn from.
struct JobEnd {
    JobId id = 0;
    std::string category;
    std::string account;
    std::uint32_t cpus = 0;
    Seconds elapsed = 0;
    int exit_code = 0;
    std::vector<std::string> nodes;
    std::string node_group; // empty when the job ran on local nodes
    Time end_time = 0;
    // 0 when the plugin did not say (older plugins).
    Time eligible_time = 0;
    Time start_time = 0;
};

} // namespace burst

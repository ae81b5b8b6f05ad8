#pragma once
// A Slurm job as burstd and burstsim see it: the fields the exporter sends
// (see doc/protocol.md, the snapshot protocol), in Slurm's units.

#include "model/clock.hpp"
#include "model/job_category.hpp"
#include "model/node_needs.hpp"
#include "model/partition_set.hpp"
#include "model/pending_reason.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace burst {

using JobId = std::uint32_t;

// One byte each, so that both and the pending reason fit the Job's first line.
enum class JobState : std::uint8_t { Pending, Running, Suspended, Completing };

// The user's opt-in to the cloud (sbatch --burst=, or a burst: tag in --comment).
enum class BurstOption : std::uint8_t { Never, Allow, Prefer };

// sbatch --threads=N|auto.  `automatic` lets burstd choose per job; `count` is a
// fixed request (0 when the user gave neither).
struct ThreadOption {
    bool automatic = false;
    std::uint32_t count = 0;
};

// The order of the fields is layout: SiteView::of reads every job of the
// snapshot on every decision (a million of them at the largest sites, 450 MB
// that no cache holds), then the policies read the waiting ones again in
// priority order.  What those loops read comes first, packed into whole cache
// lines, so that SiteView::of reads one line of each job, not five of seven
// (tests/unit/model/job_layout_test.cpp fails if they are scattered again):
//   line 0  what SiteView::of reads of every job (its partitions, node needs
//           and pending reason are interned values, not strings or heap
//           blocks of their own), and the start time and time limit the play-forward of
//           running jobs reads with cpus;
//   line 1  the sizes;
//   line 2  dependency and account (pfa's token waves, in snapshot order);
//   line 3  category (runtime estimates, in priority order).
struct alignas(64) Job {
    JobId id = 0;
    // A pending array is one record standing for this many not-yet-started tasks.
    std::uint32_t array_task_count = 1;
    std::uint32_t priority = 0;
    std::uint32_t cpus = 1; // total over all nodes
    JobState state = JobState::Pending;
    BurstOption burst = BurstOption::Allow;
    NodeNeeds needs; // of each node: gres, --constraint, CPUs, memory
    PendingReason reason; // Slurm's, e.g. "Resources", "Priority"
    Time submit_time = 0;
    Time eligible_time = 0;
    PartitionSet partitions;
    Seconds time_limit = 0; // 0 = no limit
    Time start_time = 0;    // 0 while pending

    std::uint32_t node_count = 1; // requested (pending) or allocated (running)
    std::uint32_t cpus_per_task = 1;
    std::uint64_t memory_mb = 0;  // total over all nodes; 0 = unspecified

    // dependency at the start of its line: find() on it reads 32 bytes from
    // its first character, which from later in the line touch the next one.
    alignas(64) std::string dependency;
    std::string account;

    // Stable key shared by repeated runs of the same pipeline stage (account,
    // job name, batch command); runtime models are learned per category.
    JobCategory category;
    std::vector<std::string> nodes; // allocated nodes (running jobs)
    ThreadOption threads;
    // The why: word of its AdminComment: the reason burstd last gave users.
    std::string why;

    std::string user;
    std::string qos;
    std::string name;
    // The user's size hint (--burst-size=, a size: word): its input size, in
    // the user's unit; thread scaling learns E = a·size + b.  0 = none.
    double size = 0;

    bool pending() const { return state == JobState::Pending; }
    bool running() const { return state == JobState::Running || state == JobState::Completing; }
    // Core demand of the record, counting every task of a pending array.
    std::uint64_t total_cpus() const { return std::uint64_t(cpus) * array_task_count; }
    // Held back until other jobs end (Slurm's pending reasons Dependency and
    // DependencyNeverSatisfied): predictive reads a pipeline's held stages.
    bool awaiting_dependency() const { return pending() && reason.is_dependency(); }
    // Pending for a reason no free node settles (a dependency, a hold, a
    // begin time, a limit: PendingReason::blocks_start): no demand to hire
    // for.  SiteView::of asks this of every waiting job: it reads the Job's
    // first line only (model/pending_reason.hpp).
    bool blocked() const { return pending() && reason.blocks_start(); }
    bool may_run_in(const std::string& partition) const
    {
        return std::find(partitions.begin(), partitions.end(), partition) != partitions.end();
    }
};

// A finished job as reported by the exporter's job_end event (and by traces):
// what runtime and thread-count models learn from.
struct JobEnd {
    JobId id = 0;
    JobCategory category;
    std::string account;
    std::uint32_t cpus = 0;
    std::uint32_t cpus_per_task = 1; // 1 from older plugins
    double size = 0;                 // its size hint, 0 = none
    Seconds elapsed = 0;
    int exit_code = 0;
    std::vector<std::string> nodes;
    std::string node_group; // empty when the job ran on local nodes
    Time end_time = 0;
    // 0 when the plugin did not say (older plugins).
    Time eligible_time = 0;
    Time start_time = 0;
    std::string state; // final state as Slurm names it ("" from older plugins)

    // It ran to its end: not failed, cancelled, timed out or preempted.
    bool completed() const { return exit_code == 0 && (state.empty() || state == "COMPLETED"); }
};

} // namespace burst

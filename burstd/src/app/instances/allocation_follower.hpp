#pragma once
// Launches the CLOUD nodes Slurm allocates to a job burstd just made
// cloud-eligible, without waiting for ResumeProgram.  Slurm allocates such a
// job within milliseconds of the partition change, but its power-save thread
// wakes only once a second to run ResumeProgram (then a fork and exec of
// burstctl): on average half a second, at worst a whole one, added to every
// burst.  The follower polls each routed job until Slurm has placed it and
// hands the allocated, still powered-down nodes of burstd's node groups to the
// launcher at once.  ResumeProgram's later call for the same nodes finds the
// open ledger record and relaunches with its idempotency token, which starts
// nothing new.
//
// Polling runs on the follower's own thread (slurmctld RPCs block), never on
// the io_context.  A job stops being followed once it is placed, gone, or
// still pending after `window` (Slurm had no room for it yet: ResumeProgram
// covers whatever it allocates later).

#include "app/logger.hpp"
#include "model/clock.hpp"
#include "slurm/job_allocation_probe.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace burst {

struct AllocationFollowerSettings {
    Seconds window = 10; // how long a routed job is followed while it pends
    Seconds poll = 0.05; // between two probes of the same job
};

struct AllocationFollowerCounters {
    std::uint64_t followed = 0;       // jobs handed to follow()
    std::uint64_t launched_jobs = 0;  // jobs whose nodes were launched early
    std::uint64_t launched_nodes = 0; // nodes handed to the launcher
    std::uint64_t expired = 0;        // jobs still pending after the window
    std::uint64_t probe_errors = 0;   // failed probes (the job is dropped)
    std::size_t following = 0;        // jobs followed now
};

class AllocationFollower {
public:
    // Called on the follower's thread with the job's allocated nodes that
    // belong to burstd and are still powered down in Slurm; returns those it
    // launched (a node whose launch is already under way is skipped).
    using Launcher =
        std::function<std::vector<std::string>(JobId job, const std::vector<std::string>& nodes)>;
    // Whether a node belongs to one of burstd's node groups.
    using Ownership = std::function<bool(const std::string& node)>;
    // Called on the follower's thread with all of the job's allocated nodes
    // that belong to burstd, whatever their power state: Slurm names a job in
    // SLURM_RESUME_FILE only for nodes it resumes itself, not for nodes burstd
    // already powered up when it routed the job.
    using AllocationObserver = std::function<void(JobId job, const std::vector<std::string>& nodes)>;

    AllocationFollower(JobAllocationProbe& probe, Ownership ours, Launcher launch, Logger& log,
                       AllocationFollowerSettings settings);
    ~AllocationFollower(); // stops following and joins the thread
    AllocationFollower(const AllocationFollower&) = delete;
    AllocationFollower& operator=(const AllocationFollower&) = delete;

    // Set before the first follow().
    void set_allocation_observer(AllocationObserver observer);
    // Starts following `job`; returns at once.  Following a job twice renews its window.
    void follow(JobId job);
    AllocationFollowerCounters counters() const;

private:
    using SteadyTime = std::chrono::steady_clock::time_point;
    void run();
    // One probe of `job`; true when the job needs no more following.
    bool settle(JobId job, SteadyTime deadline);

    JobAllocationProbe& probe_;
    Ownership ours_;
    Launcher launch_;
    AllocationObserver observe_allocation_;
    Logger& log_;
    AllocationFollowerSettings settings_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::map<JobId, SteadyTime> deadlines_;
    AllocationFollowerCounters counters_;
    bool stopping_ = false;
    std::thread thread_; // last: started once everything it uses exists
};

} // namespace burst

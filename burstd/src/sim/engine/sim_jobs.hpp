#pragma once
// The replay's jobs: the trace's jobs the site can run, in submit order,
// their dependencies linked, each with where it is in its life.  The other
// parts of the engine keep what they know of a job (its place in the
// queue, its cloud nodes, its view) by its index here.

#include "model/clock.hpp"
#include "model/job.hpp"
#include "sim/trace/trace.hpp"

#include <cstdint>
#include <limits>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace burst {

enum class Phase { Future, Blocked, Pending, Configuring, Running, Done };

struct SimJob {
    const TraceJob* trace = nullptr;
    std::uint32_t cpus = 0;
    std::uint32_t cpus_per_task = 1; // cpus = tasks × this
    Seconds runtime = 0;
    Seconds estimate = 0; // what the scheduler believes: the limit, else the runtime
    Phase phase = Phase::Future;
    int group = -1;       // group it was allocated in
    Time start = 0;
    std::uint32_t waiting_parents = 0;  // parents not yet ended
    std::vector<std::uint32_t> children;
    Time eligible = 0;
    std::uint64_t run_epoch = 0; // a requeue makes the pending JobEnd stale
};

class SimJobs {
public:
    static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

    // Leaves out, and counts, the jobs wider than `local_cores`; cuts (and
    // counts) runtimes past their limit.  Throws SimConfigError for a job
    // id that is there more than once, a parent that is not in the trace, a
    // dependency cycle, or a thread count that does not divide its CPUs.
    SimJobs(const std::vector<TraceJob>& trace, std::uint32_t local_cores);

    std::uint32_t size() const { return std::uint32_t(jobs_.size()); }
    bool empty() const { return jobs_.empty(); }
    SimJob& operator[](std::uint32_t j) { return jobs_[j]; }
    const SimJob& operator[](std::uint32_t j) const { return jobs_[j]; }
    std::vector<SimJob>::iterator begin() { return jobs_.begin(); }
    std::vector<SimJob>::iterator end() { return jobs_.end(); }
    std::vector<SimJob>::const_iterator begin() const { return jobs_.begin(); }
    std::vector<SimJob>::const_iterator end() const { return jobs_.end(); }
    // The replayed job with trace id `id`; kNone if there is none.
    std::uint32_t find(JobId id) const;
    // When the first job is submitted (0 without jobs).
    Time first_submit() const { return jobs_.empty() ? 0 : jobs_.front().trace->submit; }

    std::uint64_t too_wide() const { return too_wide_; }
    std::uint64_t runtimes_capped() const { return runtimes_capped_; }

private:
    void link_dependencies(const std::unordered_set<JobId>& trace_ids);

    std::vector<SimJob> jobs_; // in submit order
    std::unordered_map<JobId, std::uint32_t> by_id_;
    std::uint64_t too_wide_ = 0;
    std::uint64_t runtimes_capped_ = 0;
};

} // namespace burst

#pragma once
// When will each pending job start on the local cores?  Plays Slurm's
// FCFS + EASY backfill forward from now: jobs start in priority order while
// they fit; the first that does not gets a reservation at the earliest time
// enough cores free up *by the scheduler's reckoning* (running jobs end at
// their time limits); later jobs within `backfill_window` may start if they
// fit now and either end (by their limit) before the reservation or use only
// cores the reservation leaves spare.  Cores are actually released at the
// *expected* ends (learned runtimes), which is when the next pass runs.  So
// a backfilled job is foreseen as Slurm would place it, and a job behind a
// reservation waits for it even when it would fit.
//
// O(starts × (backfill_window + running)) plus a heap per release; play
// stops at `horizon` (jobs not started by then get +inf).

#include "model/clock.hpp"

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace burst {

struct ForecastRunning {
    Seconds expected_left = 0; // when its cores are expected back
    Seconds limit_left = 0;    // when the scheduler expects them back
    std::uint64_t cores = 0;
};

struct ForecastPending {
    std::uint64_t cores = 0;
    Seconds expected = 0; // expected runtime
    Seconds limit = 0;    // the scheduler's estimate (its time limit, else `expected`)
};

constexpr Seconds kNotForeseen = std::numeric_limits<Seconds>::infinity();

// The play with the running jobs' side of it prepared once, for a decision
// that plays several queues against the same running jobs.
class LocalStartForecast {
public:
    LocalStartForecast(std::uint64_t free_now, const std::vector<ForecastRunning>& running);
    // Start offsets (seconds from now) of `pending`, given in priority order;
    // kNotForeseen for jobs not started by `horizon`.  Only `free_now` and the
    // running jobs' cores ever free up: a job wider than they are never starts.
    std::vector<Seconds> starts(const std::vector<ForecastPending>& pending, std::uint32_t backfill_window,
                                Seconds horizon = kNotForeseen) const;

private:
    using PlannedEnd = std::pair<Seconds, std::uint64_t>; // the scheduler's view of its end, cores
    using Release = std::pair<Seconds, std::size_t>;      // expected end, slot
    struct RunningSlot {
        std::size_t end; // in ends_
        std::uint64_t cores;
    };
    std::uint64_t free_now_;
    std::vector<PlannedEnd> ends_;    // of the running jobs, in time order
    std::vector<RunningSlot> slots_;  // a slot per running job that ends
    std::vector<Release> releases_;   // their expected ends, a min-heap
};

// LocalStartForecast(free_now, running).starts(pending, ...).
std::vector<Seconds> forecast_local_starts(std::uint64_t free_now, const std::vector<ForecastRunning>& running,
                                           const std::vector<ForecastPending>& pending,
                                           std::uint32_t backfill_window, Seconds horizon = kNotForeseen);

} // namespace burst

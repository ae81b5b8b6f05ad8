#pragma once
// How long would each waiting job wait for the local cores?  The forecast
// policy's estimate, for the policies that gate their hiring on waiting
// (threshold and boot-window with lambda): running local jobs end at
// runtimes learned from finished jobs (runtime_ratio_model.hpp), and the
// local queue is played forward as Slurm's FCFS + EASY backfill would
// (local_start_forecast.hpp).  Jobs already routed to a node group are
// expected there and left out of the play.

#include "model/clock.hpp"
#include "model/job.hpp"
#include "policy/local_start_forecast.hpp"
#include "policy/runtime_ratio_model.hpp"
#include "policy/site_view.hpp"

#include <cstdint>
#include <vector>

namespace burst {

class LocalWaitEstimator {
public:
    // `depth`: pending jobs played (later ones are not foreseen);
    // `backfill_window`: as Slurm's bf_max_job_test.  The defaults are the
    // forecast policy's.
    explicit LocalWaitEstimator(std::uint32_t depth = 500, std::uint32_t backfill_window = 100)
        : depth_(depth), backfill_window_(backfill_window)
    {
    }
    void observe(const JobEnd& end) { model_.observe(end); }

    // Once per decision, before expected(): notes the jobs shown.
    void begin(const SiteView& view, Time now);
    Seconds expected(const Job& job) const { return model_.expected(job); }

    // Expected local start, in seconds from `now`, of every job of
    // view.pending: 0 for jobs routed to a group, kNotForeseen for jobs
    // beyond `depth` or not started by `horizon`.
    std::vector<Seconds> starts(const SiteView& view, Time now, Seconds horizon) const;

private:
    std::uint32_t depth_;
    std::uint32_t backfill_window_;
    RuntimeRatioModel model_;
};

} // namespace burst

#pragma once
// How long would each waiting job wait for the local cores?  The forecast
// policy's estimate, for the policies that gate their hiring on waiting
// (threshold, boot-window and pfa with lambda; waiting_cost_gate.hpp):
// running local jobs end at runtimes learned from finished jobs
// (runtime_ratio_model.hpp), and the local queue is played forward as
// Slurm's FCFS + EASY backfill would (local_start_forecast.hpp).  Jobs
// already routed to a node group are expected there and left out of the
// play.

#include "model/clock.hpp"
#include "model/job.hpp"
#include "policy/runtime/local_start_forecast.hpp"
#include "policy/runtime/runtime_ratio_model.hpp"
#include "policy/site/site_view.hpp"
#include "policy/cost/waiting_cost_gate.hpp"

#include <cstdint>
#include <functional>
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

    // Once per decision, before waiting(): notes the jobs shown.
    void begin(const SiteView& view, Time now);

    // The wait worth foreseeing for a job of `cores` expected to run `runtime`
    // (WaitingCostGate::horizon for the groups the policy may hire from).
    using Horizon = std::function<Seconds(std::uint64_t cores, Seconds runtime)>;

    // The gate's view of the pending jobs `jobs` (indices into view.pending),
    // in their order: each one's cores, its expected local start in seconds
    // from `now` (0 when routed to a group within `depth`, kNotForeseen beyond
    // `depth` or later than the largest `horizon` of them, up to which the queue is
    // played), and its expected runtime.  Each job's runtime is predicted
    // once, for the horizon, the play and the gate alike.
    std::vector<WaitingJob> waiting(const SiteView& view, Time now, const std::vector<std::size_t>& jobs,
                                    const Horizon& horizon) const;

private:
    std::uint32_t depth_;
    std::uint32_t backfill_window_;
    RuntimeRatioModel model_;
};

} // namespace burst

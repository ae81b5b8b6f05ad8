#pragma once
// What holding jobs for local cores really cost, against what the forecast
// said it would.  A job held because it was forecast to start locally in Q
// was judged to cost its wait, priced: rate × Q.  What it cost in the end
// (from its first hold): if it started locally, the wait until it started;
// if it burst later after all (the forecast slipped), the wait until it
// was routed plus what bursting then cost (its cloud cost and boot wait).
// The ratio Σ actual / Σ forecast over the last `window` held jobs says how
// far forecasts of held jobs run over, the slips into the cloud included.
//
// Only held jobs count, because those are the decisions the ratio corrects:
// a job is held exactly when its forecast wait is short, so forecast errors
// there are one-sided (a job forecast to wait long is routed, and its error
// is never seen), and a plain runtime or queue model learned from all jobs
// misses that bias.  A later burst is not a loss in itself: by then the job
// may take free cores of nodes already up, and may have waited only part of
// Q; its cost is what it was, not the whole Q wasted.

#include "model/job.hpp"

#include <cstddef>
#include <unordered_map>
#include <vector>

namespace burst {

class HoldOutcomes {
public:
    explicit HoldOutcomes(std::size_t window = 512, std::size_t min_samples = 16)
        : window_(window), min_samples_(min_samples)
    {
    }
    // The policy kept this job waiting in this decision.  Only a job's first
    // hold counts: `wait_rate` (money per second it waits) and
    // `forecast_price` (its forecast local wait × wait_rate).
    void held(JobId job, Time now, double wait_rate, double forecast_price);
    // The policy routed this job to the cloud at `now`; bursting costs
    // `burst_price` (its cloud cost + its boot's wait).  Ignored for jobs
    // never held.
    void routed(JobId job, Time now, double burst_price);
    // A job ended: if it was held, count what holding it cost.  One that
    // ended in the cloud without being routed here counts its wait only.
    void observe(const JobEnd& end);
    // Σ actual / Σ forecast cost over the held jobs in the window; 1 until
    // `min_samples` held jobs have ended.
    double cost_ratio() const;
    std::size_t outstanding() const { return held_.size(); }

private:
    struct Hold {
        Time since;
        double wait_rate;
        double forecast_price;
        double routed_price = -1; // actual cost once routed to the cloud
    };
    struct Outcome {
        double actual;
        double forecast;
    };
    std::vector<Outcome> outcomes_; // ring
    std::size_t next_ = 0;
    double actual_ = 0;   // over the ring
    double forecast_ = 0; // over the ring
    std::size_t window_;
    std::size_t min_samples_;
    std::unordered_map<JobId, Hold> held_;
};

} // namespace burst

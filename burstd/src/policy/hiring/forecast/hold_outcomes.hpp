#pragma once
// What holding jobs for local cores really cost, against what the forecast
// said: Σ actual / Σ forecast over the last `window` held jobs, where a
// held job cost its wait until it started locally, or, if it burst after
// all, its wait until routed plus that burst's cost and boot wait.  Only
// held jobs count: a job is held exactly when its forecast wait is short,
// so the errors there are one-sided, which a model learned from all jobs
// misses.  A later burst costs what it cost (often warm cores), not the
// whole forecast wait wasted.

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

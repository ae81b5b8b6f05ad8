#pragma once
// Profit under Smowton et al.'s two reward schemes, for any replayed job set:
// users pay for every pipeline and the site pays for the cores.  A pipeline
// is a set of jobs joined by dependencies (a job without any is its own);
// it is paid once, at the end of its last job, for its whole time from its
// first submission, as the paper pays a pipeline and as predictive's gate
// values it (its t counts from submission, and the jobs held behind a
// dependency add their runtimes), with d = its widest job's cores:
//
//   time-oriented        R(d, t) = d·(R_max − t·λ/3600)
//   throughput-oriented  R(d, t) = d·R_scale / max(t, τ)
//
// profit = Σ R − cloud cost − local_price × local core-hours.  The penalty λ
// (money per core-hour of waiting or running) is the one J(λ) uses, as in
// the predictive policy; R_scale defaults to λ·3600 so that a one-hour job
// loses reward at λ per core-hour, and τ (the bounded-slowdown threshold)
// keeps zero-length jobs from earning without bound.  R_max only adds the
// same Σ d·R_max to every policy's time-oriented profit.

#include "sim/engine/simulator.hpp"
#include "sim/trace/trace.hpp"

#include <vector>

namespace burst {

struct RewardScheme {
    double lambda = 1;        // money per core-hour of turnaround (time-oriented penalty)
    double reward_max = 0;    // money per core (time-oriented R_max)
    double reward_scale = -1; // money·s per core (throughput-oriented); < 0 = λ·3600
    double local_price = 0;   // money per local core-hour
    double tau = 10;          // s: the shortest turnaround the throughput scheme rewards
};

struct RewardProfit {
    double time = 0;
    double throughput = 0;
};

// `trace` gives the dependencies (TraceJob::parents) between the jobs of
// `result`; jobs the replay left out join no pipeline.
RewardProfit reward_profit(const std::vector<TraceJob>& trace, const SimResult& result, const RewardScheme& scheme);

} // namespace burst

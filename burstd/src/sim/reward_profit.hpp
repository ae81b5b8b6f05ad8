#pragma once
// Profit under Smowton et al.'s two reward schemes, for any replayed job set:
// users pay for every job and the site pays for the cores.  Each job is its
// own "pipeline" (d = its cores, t = end − eligible, i.e. wait + runtime):
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

#include "sim/simulator.hpp"

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

RewardProfit reward_profit(const SimResult& result, const RewardScheme& scheme);

} // namespace burst

#pragma once
// What a replay cost and how long jobs waited: the numbers `burstsim
// --compare` puts side by side.

#include "sim/simulator.hpp"

#include <cstddef>
#include <map>
#include <string>

namespace burst {

struct SimMetrics {
    std::size_t jobs = 0;
    std::size_t cloud_jobs = 0;
    double cloud_cost = 0;
    std::map<std::string, double> account_cost; // "" = boot, idle and billing overhead
    double mean_wait = 0;   // seconds from submit to running (cloud boot included)
    double median_wait = 0;
    double p95_wait = 0;
    double mean_bounded_slowdown = 0; // max(1, (wait + run) / max(run, tau))
    double makespan = 0;              // last end − first submit
    double cloud_core_seconds = 0;
    double waiting_core_hours = 0;    // Σ cores × wait / 3600
    double lambda = 0;
    double objective = 0;             // J(λ) = cloud cost + λ × waiting core-hours
};

// Quantiles are nearest-rank.  `tau` is the bounded-slowdown threshold (s).
SimMetrics compute_metrics(const SimResult& result, double lambda, double tau = 10);

} // namespace burst

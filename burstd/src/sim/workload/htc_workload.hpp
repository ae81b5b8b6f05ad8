#pragma once
// A high-throughput site's workload, as HTA's world (Zheng et al.) and grid
// sites see it: mostly one-core jobs that run for hours, from many users,
// arriving in a daily cycle.  No paper fixes its numbers: the defaults are
// a plausible site and every one of them is a key (man burstsim(1)).
//
// Arrivals are a Poisson process whose rate follows the day, rate ×
// (1 + amplitude × cos(2π (hour − peak) / 24)), drawn by thinning.  Each job
// belongs to one of `users` users, equally likely; a user's jobs have their
// own mean runtime (the site's mean × a log-normal factor of mean 1, σ 0.5)
// and are log-normal around it with shape `sigma`; the user's time limit is
// `limit` times their mean, rounded up to whole hours, and a job that runs
// longer is ended there, as Slurm would.  A `narrow` share of jobs take one
// core, the others one of `wide` cores, equally likely.

#include "sim/trace/trace.hpp"
#include "sim/workload/workload_spec.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace burst {

struct HtcWorkloadSpec {
    double days = 7;          // arrivals over this long
    double jobs_per_day = 2000;
    double amplitude = 0.8;   // of the daily cycle, 0 (flat) to 1
    double peak = 14;         // hour of the day arrivals peak
    double narrow = 0.9;      // share of one-core jobs
    std::vector<std::uint64_t> wide{2, 4, 8};
    double mean_hours = 3;    // mean runtime over all users
    double sigma = 1;         // log-normal shape of a user's runtimes
    double limit = 4;         // a user's time limit, in their mean runtimes
    std::uint64_t users = 20;
    std::uint64_t seed = 1;
};

// Users u1..uN of account htc, job name "task", categories htc/uK.
std::vector<TraceJob> generate_htc(const HtcWorkloadSpec& spec);

// "days=7,jobs_per_day=2000,amplitude=0.8,peak=14,narrow=0.9,wide=2:4:8,
// mean_hours=3,sigma=1,limit=4,users=20" (every key optional).
HtcWorkloadSpec parse_htc_spec(const std::string& text, std::uint64_t seed);

} // namespace burst

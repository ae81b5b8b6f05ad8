#pragma once
// A valid lower bound on J(λ) = cloud cost + λ × waiting core-hours over
// every schedule of a trace on a site: no policy, clairvoyant or not, can do
// better.  Where the bound is above what an aim asks for, no policy can meet
// that aim.
//
// Every job j (c_j cores, local runtime p_j, submitted a_j) either runs on
// the local cores from some s_j ≥ a_j, or in the cloud from some s_j ≥ a_j,
// paying at least c_j·w_j, w_j the least any group charges a core of it
// (price per core·s × p_j / speed, cut at j's limit as Slurm ends it; boots,
// idle nodes and billing minimums are relaxed away).  Either way it waits
// s_j − a_j.  What couples the jobs is capacity: at any time the local
// jobs use at most L cores and the cloud jobs at most K, the groups' cores
// (a cloud job runs q_j, the least of p_j / speed over the groups, cut at
// its limit: pairing it with w_j is a relaxation).
//
// Lagrangian relaxation prices that capacity instead: for any prices
// μ(t), ν(t) ≥ 0 per core·s,
//
//   J ≥ Σ_j c_j · min over s ≥ a_j of
//         min( λ'(s − a_j) + ∫_s^{s+p_j} μ,
//              λ'(s − a_j) + w_j + ∫_s^{s+q_j} ν )
//       − L ∫ μ − K ∫ ν,
//
// (λ' = λ per core·s) because a real schedule pays its own J and, by
// capacity, no more than L ∫ μ + K ∫ ν for the capacity it uses.  The
// prices are constant on buckets of a time grid (zero past it), so each
// job's minimum is at its release or where its start or end meets a bucket
// edge: exact, not sampled.  Projected subgradient ascent (Polyak steps
// towards a known schedule's J) searches the prices; every iterate is a
// valid bound and the best is kept.
//
// A task's waiting counts from when its parents end, which another schedule
// may move: traces with dependencies get no bound.
//
// Besides the order local jobs start in (any order here; FCFS with EASY
// backfill in a replay), the bound relaxes boots, idle nodes, billing
// minimums and per-hour rounding, whole nodes billed for narrower jobs,
// spot interruptions and stock-outs, and pairs the shortest cloud run with
// the cheapest.  Its value also depends on how far the
// steps get: more steps or finer buckets raise it by a few percent.

#include "sim/engine/sim_config.hpp"
#include "sim/trace/trace.hpp"

#include <optional>
#include <vector>

namespace burst {

struct ObjectiveBoundOptions {
    Seconds bucket = 300;  // the prices' time grid
    int iterations = 300;  // subgradient steps
};

// The bound for the jobs burstsim replays from `trace` on `config` (those no
// wider than the local cores, at their true runtimes): J can be no lower.
// `achieved` is a J some schedule reaches (the clairvoyant reference's), the
// target the steps aim at; lambda (≥ 0) is per waiting core-hour.  No value
// when a job has parents, lambda is negative or the site has no local cores
// (burstsim refuses such a site).
std::optional<double> objective_bound(const SimConfig& config, const std::vector<TraceJob>& trace, double lambda,
                                      double achieved, const ObjectiveBoundOptions& options = {});

} // namespace burst

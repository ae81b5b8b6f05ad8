#pragma once
// Thread scaling for a trace that carries none (SWF, sacct): `burstsim
// --auto-threads SHARE` makes that share of the jobs --threads=auto and gives
// every category a c drawn from Beta(2, 2) (mean 0.5, most between 0.2 and
// 0.8: parallel codes that are neither perfectly serial nor perfect), the
// draw seeded by the category's name and the run's seed, so a category
// scales alike in every run of a comparison.  A job's trace runtime is taken
// as its single-threaded time E, each of its CPUs a one-thread task; its
// size hint stays unknown.  Which jobs are auto is picked by their id.
//
// A category's scaling can only be learned from runs at two counts or more,
// and burstd explores only jobs that wait while local cores are idle, which
// a replayed queue seldom has; so the replay may start from what learning
// would reach: teach_trace_scaling gives the thread policy each auto
// category's c and its mean runtime as E.

#include "policy/threads/scaling_book.hpp"
#include "sim/trace/trace.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace burst {

struct TraceScalingReport {
    std::size_t auto_jobs = 0;
    std::size_t categories = 0; // of the auto jobs
};

// Leaves jobs that already carry a scaling alone.
TraceScalingReport give_trace_scaling(std::vector<TraceJob>& jobs, double share, std::uint64_t seed);

// Completed runs of each auto category at 1, 2 and 4 threads, as T(t) of
// its c and mean single-threaded runtime, into `book`.
void teach_trace_scaling(ScalingBook& book, const std::vector<TraceJob>& jobs);

} // namespace burst

#pragma once
// Interactive work for a trace that marks none (SWF, sacct): `burstsim
// --interactive-jobs SHARE` makes that share of the jobs that look like
// sessions interactive (salloc, srun --pty).  A session is narrow and
// short: at most kInteractiveMaxCpus CPUs, a run of at most
// kInteractiveMaxRuntime, no workflow parents and no --threads=auto.  Which
// of them are picked is decided by their id (another hash than
// --auto-threads uses, so the two picks are independent), so every run of a
// comparison has the same interactive jobs.

#include "model/clock.hpp"
#include "sim/trace/trace.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace burst {

inline constexpr std::uint32_t kInteractiveMaxCpus = 4;
inline constexpr Seconds kInteractiveMaxRuntime = 4 * 3600;

struct TraceInteractiveReport {
    std::size_t interactive = 0;
    std::size_t candidates = 0; // jobs shaped like a session
};

TraceInteractiveReport give_interactive(std::vector<TraceJob>& jobs, double share);

} // namespace burst

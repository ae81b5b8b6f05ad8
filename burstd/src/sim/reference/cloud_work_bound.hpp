#pragma once
// A valid lower bound on the cloud work any schedule of a trace needs if no
// job may start later than it did in a given run ("at the achieved wait").
//
// Job j (c_j cores, local runtime p_j, submitted r_j, started after waiting
// w_j in the run) must then finish by d_j = r_j + w_j + p_j.  Relax every
// constraint but capacity: work is fluid (any core may do any of a job's
// c_j·p_j core·s, at any rate, preempted and split between local and cloud
// at will) and cloud nodes boot instantly and cost nothing but their cores.
// Every real schedule with those start times is a schedule of the relaxation,
// so the least cloud work of the relaxation bounds the real one from below:
//
//   cloud work ≥ Σ c_j·p_j − max local work,
//
// where max local work is the most core·s that `cores` local cores can do
// of windows [r_j, d_j).  That maximum is a maximum matching of work units
// to (core, second) slots in a convex bipartite graph (each unit is adjacent
// to an interval of slots); Glover's rule — fill each slot, in time order,
// with available work of the earliest deadline — finds it, i.e. fluid EDF
// that drops work whose deadline has passed.  O(n log n).
//
// Windows open at submission, not at eligibility: in another schedule a
// job's parents may end sooner, so its achieved eligibility is no bound.
// The bound is loose where it relaxes most: a narrow long job may not really
// use many cores at once, and cloud nodes do need to boot.

#include "sim/engine/sim_config.hpp"
#include "sim/engine/simulator.hpp"

#include <cstdint>
#include <vector>

namespace burst {

struct WorkWindow {
    Time release = 0;
    Time deadline = 0;
    double work = 0; // core·s
};

// Most core·s `cores` local cores can do of the windows' work (fluid EDF).
double max_local_work(std::vector<WorkWindow> windows, std::uint64_t cores);

struct CloudWorkBound {
    double total_work = 0;        // Σ c_j·p_j, local core·s
    double local_work = 0;        // the relaxation's most local work
    double cloud_core_seconds = 0; // (total − local) at the fastest group's speed
    double cloud_cost = 0;         // at the cheapest group's price per core·s of work
};

// The bound at the waits achieved in `run` on `config`'s local cores.  A
// cloud job's local runtime is its cloud runtime × its group's speed.
CloudWorkBound cloud_work_bound(const SimConfig& config, const SimResult& run);

} // namespace burst

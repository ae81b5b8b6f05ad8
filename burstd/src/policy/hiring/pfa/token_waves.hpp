#pragma once
// The Token-based Approximator of Ilyushkin et al. (PFA, §3.3.2) over the
// queue's dependency graph.  Tokens start on every running job and every
// pending job whose parents have all ended (wave 0); each step moves them to
// the jobs all of whose parents hold or held a token.  Wave k is thus the
// set of jobs whose longest chain of unfinished ancestors has k links.  The
// approximator's θ (tasks in the visited waves) and λ (largest wave, the
// level of parallelism) come from the wave sizes.  Without dependencies
// every job is in wave 0: the plain queue demand.

#include "model/cluster_state.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace burst {

// Cores per wave, per account, counting running and pending jobs that may
// burst (burst=never jobs, and jobs `served` says no node group could run,
// only link the graph).  Jobs on a dependency cycle never run
// and are left out.  O(jobs + edges); O(jobs) when no job has a dependency.
// Without `served`, every node group serves every job.
std::map<std::string, std::vector<double>> token_waves(const Snapshot& snapshot,
                                                       const std::function<bool(const Job&)>& served = {});

// θ: cores in the first `depth` waves (all of them when depth is infinite).
double visited_cores(const std::vector<double>& waves, double depth);
// λ: the largest wave among the first `depth`.
double widest_wave(const std::vector<double>& waves, double depth);

} // namespace burst

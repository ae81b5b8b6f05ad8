#pragma once
// burstsim's clairvoyant reference for J(λ): the best of several burst sets
// chosen with full knowledge of arrivals and true runtimes, each replayed
// through the simulator (so its J is achievable on the simulated site, with
// boots, billing and EASY backfill as every policy gets them).
//
// Candidates, each a set of jobs to route at their first decision:
//  1. no-burst rule: a job bursts iff its wait in the replay without
//     bursting, priced at λ, exceeds its burst_cost (clairvoyant_policy.hpp);
//  2. plan: jobs in submit order are given the earliest hole of their cores
//     for their true runtime in a profile of local cores (conservative
//     backfilling with exact runtimes); a job bursts iff that hole's wait
//     priced at λ exceeds its burst_cost, else it takes the hole.  Unlike 1,
//     a burst job leaves its cores to those behind it;
//  3. fixed point of 2: replay the current set; a local job's wait is the one
//     it got, a burst job's the earliest hole of its true runtime among the
//     replay's local jobs; burst exactly the jobs whose wait is worth more
//     than bursting; repeat until the set stops changing (at most
//     `iterations` replays).
// Candidates 2 and 3 are tried twice: with burst_cost for whole nodes, and
// with each job narrower than a node paying only its share (burst jobs
// share nodes when many burst together).
//  4. baselines: the burst sets of given baseline replays (burstsim passes
//     always's, the best fixed delay's and the best compared policy's for
//     this λ), each routed at its jobs' first decision.  1-3 burst each job alone, so they miss what
//     keeping warm nodes busy with many small bursts saves; these do not,
//     and keep the reference at or below the baselines it is compared with
//     (up to the earlier routing, which saves them waiting).
// The reference is the candidate with the least J(λ).  It is not an
// optimum (the problem is NP-hard already without a cloud); the lower bound
// of cloud_work_bound.hpp brackets it from the other side.

#include "sim/sim_config.hpp"
#include "sim/sim_metrics.hpp"
#include "sim/simulator.hpp"
#include "sim/trace.hpp"

#include <string>
#include <unordered_map>
#include <vector>

namespace burst {

using BurstSet = std::unordered_map<JobId, std::string>; // job → group

// Candidate 2.
BurstSet plan_burst_set(const SimConfig& config, const std::vector<TraceJob>& trace, double lambda,
                        bool shared = false);

// One step of candidate 3 from a replay of a burst set.
BurstSet refine_burst_set(const SimConfig& config, const std::vector<TraceJob>& trace, const SimResult& replay,
                          double lambda, bool shared = false);

// The jobs a replay ran in the cloud, in the groups it ran them in.
BurstSet burst_set_of(const SimConfig& config, const SimResult& replay);

struct BaselineSet {
    std::string name; // the candidate's name, e.g. "always"
    BurstSet set;
};

struct ClairvoyantRun {
    std::string candidate; // "no-burst-rule", "plan", "fixed-point-<k>", "shared-plan", "shared-fixed-point-<k>",
                           // or a baseline's name
    std::size_t replays = 0;
    SimResult result;
    SimMetrics metrics;
};

// `no_burst` is the replay with policy never; `iterations` bounds each
// fixed point's replays; `baselines` are candidates 4; metrics use `tau`.
ClairvoyantRun clairvoyant_reference(const SimConfig& config, const std::vector<TraceJob>& trace,
                                     const SimResult& no_burst, double lambda, unsigned iterations,
                                     const std::vector<BaselineSet>& baselines = {}, double tau = 10);

} // namespace burst

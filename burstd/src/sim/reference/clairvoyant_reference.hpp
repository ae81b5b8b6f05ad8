#pragma once
// burstsim's clairvoyant reference for J(λ): the best of several burst sets
// chosen with full knowledge of arrivals and true runtimes, each replayed
// through the simulator by ClairvoyantPolicy (clairvoyant_policy.hpp: routed
// at arrival on nodes hired ahead, idle nodes released at once), so its J is
// achievable on the simulated site, with boots, billing and EASY backfill as
// every policy gets them.  A job "bursts" below iff its wait priced at λ
// exceeds its burst_plan cost (pre-hired nodes, so no boot wait).
//
// Candidates:
//  0. never: the replay without bursting;
//  1. no-burst rule: a job bursts iff its wait in the replay without
//     bursting is worth more than bursting it;
//  2. plan: jobs in submit order are given the earliest hole of their cores
//     for their true runtime in a profile of local cores (conservative
//     backfilling with exact runtimes); a job bursts iff that hole's wait
//     is worth more, else it takes the hole.  Unlike 1, a burst job leaves
//     its cores to those behind it;
//  3. fixed point of 2: replay the current set; a local job's wait is the one
//     it got, a burst job's the earliest hole of its true runtime among the
//     replay's local jobs; burst exactly the jobs whose wait is worth more
//     than bursting; repeat until the set stops changing (at most
//     `iterations` replays).
// Candidates 2 and 3 are tried twice: with burst costs for whole nodes, and
// with each job narrower than a node paying only its share (burst jobs
// share nodes when many burst together).
//  4. baselines: runs of policies (burstsim passes always's, the best fixed
//     delay's and every other compared policy's but never's for this λ).
//     Each gives three candidates: its burst set replayed by
//     ClairvoyantPolicy (named as the baseline: its jobs routed at arrival
//     on pre-hired nodes, released at once); the same with each job routed no earlier than its start in the
//     run less its group's boot (<baseline>-timed: where the group is at its
//     node limit, which jobs get the cloud depends on when each is routed);
//     and the run itself (<baseline>-as-run: a clairvoyant can act exactly
//     as that policy did, and the simulator is deterministic).
//     1-3 judge each job's burst alone, so they miss what keeping warm nodes
//     busy with many small bursts saves; these do not.  The as-run
//     candidate makes the reference at or below every baseline by
//     construction; where it is chosen, the heuristics found nothing better.
// The reference is the candidate with the least J(λ).  It is not an
// optimum (the problem is NP-hard already without a cloud); the lower bound
// of cloud_work_bound.hpp brackets it from the other side.

#include "sim/reference/clairvoyant_policy.hpp"
#include "sim/engine/sim_config.hpp"
#include "sim/report/sim_metrics.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/trace/trace.hpp"

#include <string>
#include <unordered_map>
#include <vector>

namespace burst {

// Candidate 1.
BurstSet no_burst_rule_set(const SimConfig& config, const std::vector<TraceJob>& trace, const SimResult& no_burst,
                           double lambda);

// Candidate 2.
BurstSet plan_burst_set(const SimConfig& config, const std::vector<TraceJob>& trace, double lambda,
                        bool shared = false);

// One step of candidate 3 from a replay of a burst set.
BurstSet refine_burst_set(const SimConfig& config, const std::vector<TraceJob>& trace, const SimResult& replay,
                          double lambda, bool shared = false);

// The jobs a replay ran in the cloud, in the groups it ran them in.
BurstSet burst_set_of(const SimConfig& config, const SimResult& replay);

struct Baseline {
    std::string name;     // the candidate's name, e.g. "always"
    const SimResult& run; // the caller's: a trace's runs are too large to copy
};

struct ClairvoyantRun {
    std::string candidate; // "never", "no-burst-rule", "plan", "fixed-point-<k>", "shared-plan",
                           // "shared-fixed-point-<k>", a baseline's name, <name>-timed or <name>-as-run
    std::size_t replays = 0;
    SimResult result;
    SimMetrics metrics;
};

// `no_burst` is the replay with policy never; `iterations` bounds each
// fixed point's replays; `baselines` are candidates 4; metrics use `tau`.
ClairvoyantRun clairvoyant_reference(const SimConfig& config, const std::vector<TraceJob>& trace,
                                     const SimResult& no_burst, double lambda, unsigned iterations,
                                     const std::vector<Baseline>& baselines = {}, double tau = 10);

} // namespace burst

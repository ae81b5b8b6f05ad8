#pragma once
// Plans over a job's chain (the job and the jobs that wait for it), for the
// long-term allocators (Smowton et al., section IV-B): a plan gives every
// stage its CPUs per task.  Stage 0 is the job asked about; a later stage
// that is not --threads=auto or whose scaling is not known keeps its count.

#include "policy/threads/thread_allocator.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace burst {

using ChainPlan = std::vector<std::uint32_t>; // CPUs per task, stage 0 first

// How each stage of a plan is priced: per CPU-second, and the speed of the
// cores the stages run on.
struct StagePricing {
    std::function<double(std::size_t stage, std::uint32_t threads)> price;
    double speed = 1;
};

// Seconds stage `s` takes with `threads`, at speed 1.
Seconds chain_stage_time(const ThreadQuestion& q, std::size_t s, std::uint32_t threads);
// The counts stage `s` may take: the question's, or its own count (in
// `fixed`) for a stage a plan may not change.
const std::vector<std::uint32_t>& chain_stage_counts(const ThreadQuestion& q, std::size_t s,
                                                     std::vector<std::uint32_t>& fixed);

// The chain's expected cost under a plan: each stage's cores at its price,
// plus the reward lost by the chain ending when the last stage does,
// `elapsed` after the job's submission.
double plan_cost(const ThreadQuestion& q, const ChainPlan& plan, const StagePricing& pricing, Seconds elapsed);
// Seconds the stages after the first take under a plan, on local cores.
Seconds plan_rest_time(const ThreadQuestion& q, const ChainPlan& plan);

// The cheapest plan on idle local cores, the job starting q.elapsed after
// its submission: every stage at the local price, as wide as the counts
// allow.  Found by coordinate descent (exact in one sweep for the
// time-oriented reward, whose cost is a sum over stages).
ChainPlan ideal_plan(const ThreadQuestion& q);

// The long-term allocator's shortlist: every plan of the first stages (as
// many as keep the plans at most kMaxPlans; later ones single-threaded),
// ordered by the core-time they invest; those whose cost on idle local cores
// is below every plan that invests less; `size` of them, at regular
// intervals from the cheapest in core-time to the cheapest in cost.
std::vector<ChainPlan> plan_shortlist(const ThreadQuestion& q, std::size_t size);

constexpr std::size_t kMaxPlans = 100000;

} // namespace burst

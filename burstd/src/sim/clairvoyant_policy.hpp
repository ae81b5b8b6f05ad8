#pragma once
// A hindsight router for burstsim, not a deployable policy: it is handed the
// set of jobs to burst (and where) by someone who knows every arrival and
// true runtime, and routes each at the first decision after it arrives.
// clairvoyant_reference.hpp chooses the set.
//
// The first such rule (kept as one of the reference's candidates): replay
// the trace without bursting, then burst a job iff the wait it had there,
// priced at λ, is worth more than bursting it costs:
//
//   wait × cores × λ / 3600  >  burst_cost (see below)

#include "policy/policy.hpp"
#include "sim/sim_config.hpp"
#include "sim/simulator.hpp"
#include "sim/trace.hpp"

#include <string>
#include <unordered_map>
#include <vector>

namespace burst {

// What bursting a job costs in J(λ), in the group where that is least:
// nodes × price / 3600 × max(min_billed, boot + runtime / speed) + λ × cores ×
// boot / 3600 (it still waits for its nodes to boot).  With `shared`, a job
// narrower than a node pays only its cores' share of the node (other burst
// jobs use the rest) and no minimum.  `group` is set to the group's index,
// or -1 (and the cost is +inf) when no group can hold it.
double burst_cost(const SimConfig& config, const TraceJob& job, double lambda, int& group, bool shared = false);

class ClairvoyantPolicy final : public Policy {
public:
    static constexpr std::string_view kName = "clairvoyant";
    explicit ClairvoyantPolicy(std::unordered_map<JobId, std::string> route) : route_(std::move(route)) {}
    // The no-burst-replay rule: `no_burst` is the replay of `trace` on `config` with policy never.
    ClairvoyantPolicy(const SimConfig& config, const std::vector<TraceJob>& trace, const SimResult& no_burst,
                      double lambda);
    std::string_view name() const override { return kName; }
    Decision decide(const ClusterState& state, const Clock& clock) override;

    std::size_t chosen() const { return route_.size(); }
    const std::unordered_map<JobId, std::string>& route() const { return route_; }

private:
    std::unordered_map<JobId, std::string> route_; // job → group it bursts to
};

} // namespace burst

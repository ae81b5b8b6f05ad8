#pragma once
// A hindsight reference for burstsim, not a deployable policy: it knows
// every arrival and true runtime.  The trace is first replayed without
// bursting; then a job bursts iff the wait it had there, priced at λ, is
// worth more than bursting it costs:
//
//   wait × cores × λ / 3600  >  nodes × price / 3600 × max(min_billed, boot + runtime / speed)
//                               + λ × cores × boot / 3600
//
// in the group where that cost is least (the second term: it still waits
// for its nodes to boot).  Chosen jobs are routed at the first decision
// after they arrive.
//
// Why it is a sensible reference: it is the per-job form of J(λ)'s trade-off
// with perfect knowledge of the no-burst counterfactual, so an online
// policy's J near it means there is little left to gain from better runtime
// or wait prediction.  It is not an optimum: it ignores that bursting one
// job shortens the waits of those behind it (so it may burst more than
// needed when queues are deep) and the idle tail before a node powers down.

#include "policy/policy.hpp"
#include "sim/sim_config.hpp"
#include "sim/simulator.hpp"
#include "sim/trace.hpp"

#include <string>
#include <unordered_map>
#include <vector>

namespace burst {

class ClairvoyantPolicy final : public Policy {
public:
    static constexpr std::string_view kName = "clairvoyant";
    // `no_burst` is the replay of `trace` on `config` with policy never.
    ClairvoyantPolicy(const SimConfig& config, const std::vector<TraceJob>& trace, const SimResult& no_burst,
                      double lambda);
    std::string_view name() const override { return kName; }
    Decision decide(const ClusterState& state, const Clock& clock) override;

    std::size_t chosen() const { return route_.size(); }

private:
    std::unordered_map<JobId, std::string> route_; // job → group it bursts to
};

} // namespace burst

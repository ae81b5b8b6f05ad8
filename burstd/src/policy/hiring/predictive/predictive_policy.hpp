#pragma once
#include "policy/expander/expander.hpp"
#include "policy/policy.hpp"
#include "policy/policy_params.hpp"
#include "policy/runtime/runtime_estimator.hpp"
#include "policy/site/site_view_builder.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace burst {

// Smowton et al.'s predictive horizontal scaling (section IV-A, the late-job
// window of VI-E), adapted to a Slurm queue: the queue is played forward
// greedy first fit over the running jobs' expected ends, giving each
// pending job its expected local wait Q, and a job is routed when the
// reward its wait loses (its own; with benefit=queue or replay, the queue's
// too) exceeds what the cloud adds to the bill.  benefit=self is the
// default because the paper's queue credit, which credits every queued job
// with the head's whole wait, over-bursts on real queues.  The rule, its
// departures from the paper and their measurements: doc/policies.md,
// section "predictive".
class PredictivePolicy final : public Policy {
public:
    static constexpr std::string_view kName = "predictive";
    explicit PredictivePolicy(PolicyParams& params);
    std::string_view name() const override { return kName; }
    Decision decide(const ClusterState& state, const Clock& clock) override;
    // It routes waiting jobs, and does nothing else; its runtimes learn from job ends.
    bool wants_decision(const SiteActivity& activity) const override { return activity.jobs_waiting(); }
    void observe(const JobEnd& end) override { runtimes_.observe(end); }

    // Expected seconds until a running job ends, given it has run `elapsed`
    // of an expected `expected` (0 = unknown) and has `limit` (0 = none).
    Seconds remaining(Seconds elapsed, Seconds expected, Seconds limit) const;
    // Reward lost by a job of `cores` cores and runtime `runtime` when its
    // wait grows from `wait − advance` to `wait`.
    double reward_loss(std::uint64_t cores, Seconds runtime, Seconds wait, Seconds advance) const;

private:
    SiteViewBuilder site_; // each decision's view, in storage kept from the last
    double lambda_;
    bool throughput_;
    double reward_scale_;
    bool uniform_late_;
    double max_error_;
    enum class Benefit { Self, Queue, Replay };
    Benefit benefit_;
    double local_price_; // money per local core-hour bursting saves (0: local cores are a sunk cost)
    std::uint32_t depth_;
    bool limit_runtimes_;
    RuntimeEstimator runtimes_;
    std::unique_ptr<Expander> expander_;

    static Benefit parse_benefit(const std::string& name);
    Seconds expected_runtime(const Job& job) const;
};

} // namespace burst

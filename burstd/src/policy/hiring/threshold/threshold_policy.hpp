#pragma once
#include "policy/expander/expander.hpp"
#include "policy/policy.hpp"
#include "policy/runtime/local_wait_estimator.hpp"
#include "policy/policy_params.hpp"
#include "policy/cost/waiting_cost_gate.hpp"
#include "policy/site/site_view_builder.hpp"

#include <deque>
#include <memory>
#include <string>
#include <utility>

namespace burst {

// Kubernetes-HPA-like: sizes the cloud to a target, on busy and waiting
// cores (metric=utilization, the default: HPA's own rule sees only busy
// cores, so a queue with nothing running would hire nothing), on HPA's rule
// itself (metric=hpa, Zheng et al. eq. 1, under its own name so that a
// burstd.conf naming the default keeps what it had) or on queue length
// (metric=queue).  Scales up at once; scales down only idle nodes, and only
// below the highest desire over the stabilization window (HPA's downscale
// stabilization).  With lambda, hires pass the waiting cost gate.
// doc/policies.md, section "threshold".
class ThresholdPolicy final : public Policy {
public:
    static constexpr std::string_view kName = "threshold";
    explicit ThresholdPolicy(PolicyParams& params);
    std::string_view name() const override { return kName; }
    Decision decide(const ClusterState& state, const Clock& clock) override;
    void observe(const JobEnd& end) override { waits_.observe(end); }

private:
    SiteViewBuilder site_; // each decision's view, in storage kept from the last
    enum class Metric { Utilization, Hpa, Queue };
    static Metric metric_named(const std::string& name);

    Metric metric_;
    double target_;
    std::uint32_t target_queue_;
    Seconds stabilization_;
    std::unique_ptr<Expander> expander_;
    WaitingCostGate gate_;
    LocalWaitEstimator waits_; // for the gate
    std::deque<std::pair<Time, std::uint64_t>> history_; // (time, desired cloud cores)
};

} // namespace burst

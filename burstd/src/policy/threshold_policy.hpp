#pragma once
#include "policy/expander.hpp"
#include "policy/policy.hpp"
#include "policy/policy_params.hpp"

#include <deque>
#include <memory>
#include <utility>

namespace burst {

// Kubernetes-HPA-like: size the cloud so that busy plus waiting cores would
// fill the site to a target utilization,
//   desired cloud cores = (busy + waiting) / target − local cores,
// scale up at once, scale down only to the highest desire seen over the
// stabilization window (HPA's downscale stabilization), and only idle nodes.
// Parameters: target_utilization (0.8), stabilization seconds (300),
// expander (price).
class ThresholdPolicy final : public Policy {
public:
    static constexpr std::string_view kName = "threshold";
    explicit ThresholdPolicy(PolicyParams& params);
    std::string_view name() const override { return kName; }
    Decision decide(const ClusterState& state, const Clock& clock) override;

private:
    double target_;
    Seconds stabilization_;
    std::unique_ptr<Expander> expander_;
    std::deque<std::pair<Time, std::uint64_t>> history_; // (time, desired cloud cores)
};

} // namespace burst

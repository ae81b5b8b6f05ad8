#pragma once
#include "policy/policy.hpp"
#include "policy/policy_params.hpp"

namespace burst {

// The baseline that never bursts: the site as it is without burstd.
class NeverPolicy final : public Policy {
public:
    static constexpr std::string_view kName = "never";
    explicit NeverPolicy(PolicyParams&) {}
    std::string_view name() const override { return kName; }
    Decision decide(const ClusterState& state, const Clock& clock) override;
    bool wants_decision(const SiteActivity&) const override { return false; }
};

} // namespace burst

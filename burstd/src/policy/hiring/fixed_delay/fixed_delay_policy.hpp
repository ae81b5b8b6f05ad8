#pragma once
#include "policy/expander/expander.hpp"
#include "policy/policy.hpp"
#include "policy/policy_params.hpp"
#include "policy/site/site_view_builder.hpp"

#include <memory>

namespace burst {

// Reference policy: a burstable job waits up to `delay` seconds for local
// cores (counted from when it became eligible), then is made cloud-eligible
// in a group with room.  Jobs that fit in the cores free now stay local;
// jobs that prefer the cloud go at once.  burstsim --tune-delay finds the
// delay that would have been best in hindsight for a trace and λ.
class FixedDelayPolicy final : public Policy {
public:
    static constexpr std::string_view kName = "fixed-delay";
    explicit FixedDelayPolicy(PolicyParams& params);
    std::string_view name() const override { return kName; }
    Decision decide(const ClusterState& state, const Clock& clock) override;
    // It routes waiting jobs, and does nothing else.
    bool wants_decision(const SiteActivity& activity) const override { return activity.jobs_waiting(); }

private:
    SiteViewBuilder site_; // each decision's view, in storage kept from the last
    Seconds delay_;
    std::unique_ptr<Expander> expander_;
};

} // namespace burst

#pragma once
#include "policy/expander/expander.hpp"
#include "policy/policy.hpp"
#include "policy/policy_params.hpp"
#include "policy/site/node_group_index.hpp"

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

private:
    NodeGroupIndex node_groups_; // kept across decisions for SiteView::of
    Seconds delay_;
    std::unique_ptr<Expander> expander_;
};

} // namespace burst

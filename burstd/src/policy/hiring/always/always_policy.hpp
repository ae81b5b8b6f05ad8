#pragma once
#include "policy/expander/expander.hpp"
#include "policy/policy.hpp"
#include "policy/policy_params.hpp"
#include "policy/site/site_view_builder.hpp"

#include <memory>

namespace burst {

// Slurm's stock reactive bursting: every pending job that may burst and
// cannot start on the local nodes now is made cloud-eligible in a group with
// room for it; Slurm then resumes CLOUD nodes on allocation.  Jobs that
// prefer the cloud are routed even when local cores are free.
class AlwaysPolicy final : public Policy {
public:
    static constexpr std::string_view kName = "always";
    explicit AlwaysPolicy(PolicyParams& params);
    std::string_view name() const override { return kName; }
    Decision decide(const ClusterState& state, const Clock& clock) override;
    // It routes waiting jobs, and does nothing else.
    bool wants_decision(const SiteActivity& activity) const override { return activity.jobs_waiting(); }

private:
    SiteViewBuilder site_; // each decision's view, in storage kept from the last
    std::unique_ptr<Expander> expander_;
};

} // namespace burst

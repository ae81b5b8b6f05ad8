#pragma once
#include "policy/expander/expander.hpp"
#include "policy/policy.hpp"
#include "policy/policy_params.hpp"
#include "policy/site/node_group_index.hpp"

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

private:
    NodeGroupIndex node_groups_; // kept across decisions for SiteView::of
    std::unique_ptr<Expander> expander_;
};

} // namespace burst

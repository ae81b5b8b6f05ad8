#pragma once
#include "policy/expander.hpp"
#include "policy/policy.hpp"
#include "policy/policy_params.hpp"
#include "policy/runtime_estimator.hpp"

#include <memory>

namespace burst {

// Zheng et al.'s HTA resource estimation (CLUSTER 2020, Algorithm 1): play
// the running and waiting jobs forward over one node boot time using
// per-category runtimes learned from finished jobs (fallback: time limit),
// and hire for the burstable work still waiting when new nodes would be
// ready.  When nothing would wait and cores would be spare, release idle
// cloud nodes.  Resizing actions are at least one boot time apart, the boot
// time being the latest measured one (else the group's configured one).
// Parameters: expander (least-waste).
class BootWindowPolicy final : public Policy {
public:
    static constexpr std::string_view kName = "boot-window";
    explicit BootWindowPolicy(PolicyParams& params);
    std::string_view name() const override { return kName; }
    Decision decide(const ClusterState& state, const Clock& clock) override;
    void observe(const JobEnd& end) override { runtimes_.observe(end); }

private:
    std::unique_ptr<Expander> expander_;
    RuntimeEstimator runtimes_;
    Time next_resize_ = 0;
};

} // namespace burst

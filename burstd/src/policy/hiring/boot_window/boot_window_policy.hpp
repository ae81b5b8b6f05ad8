#pragma once
#include "policy/expander/expander.hpp"
#include "policy/runtime/local_wait_estimator.hpp"
#include "policy/policy.hpp"
#include "policy/policy_params.hpp"
#include "policy/runtime/runtime_estimator.hpp"
#include "policy/cost/waiting_cost_gate.hpp"
#include "policy/site/site_view_builder.hpp"

#include <memory>

namespace burst {

// Zheng et al.'s HTA resource estimation (Algorithm 1): play the running
// and waiting jobs forward over one node boot time and hire, in one
// resize, for the burstable work still waiting when new nodes would be
// ready; when nothing would wait and cores would be spare, drain cloud
// nodes.  Only runtimes are learned (per category): Slurm allocates the
// cores a job asks for, so there is no resource use to learn.  The window is
// the longest measured boot of the groups that can grow, and resizes are at
// least one window apart, as HTA avoids thrashing.  With lambda, hires pass
// the waiting cost gate.  Steps, departures from the paper and
// measurements: doc/policies.md, section "boot-window".
class BootWindowPolicy final : public Policy {
public:
    static constexpr std::string_view kName = "boot-window";
    explicit BootWindowPolicy(PolicyParams& params);
    std::string_view name() const override { return kName; }
    Decision decide(const ClusterState& state, const Clock& clock) override;
    // It hires for waiting jobs and drains cloud nodes that are on; its boot
    // times are worked out afresh each decision and its runtimes learned
    // from job ends.  With the gate, every decision shows its runtime model
    // the jobs running (LocalWaitEstimator::begin), whose ends it then
    // learns more from: it is asked at every one.
    bool wants_decision(const SiteActivity& activity) const override
    {
        return !gate_.off() || activity.jobs_waiting() || activity.cloud_on();
    }
    void observe(const JobEnd& end) override
    {
        runtimes_.observe(end);
        waits_.observe(end);
    }

private:
    SiteViewBuilder site_; // each decision's view, in storage kept from the last
    std::unique_ptr<Expander> expander_;
    RuntimeEstimator runtimes_;
    WaitingCostGate gate_; // and its record of the groups' boot times
    LocalWaitEstimator waits_; // for the gate
    Time next_resize_ = 0;
};

} // namespace burst

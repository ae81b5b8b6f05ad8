#pragma once
#include "policy/expander/expander.hpp"
#include "policy/runtime/local_wait_estimator.hpp"
#include "policy/policy.hpp"
#include "policy/policy_params.hpp"
#include "policy/runtime/runtime_estimator.hpp"
#include "policy/cost/waiting_cost_gate.hpp"

#include <memory>

namespace burst {

// Zheng et al.'s HTA resource estimation (CLUSTER 2020, Algorithm 1): play
// the running and waiting jobs forward over one node boot time using
// per-category runtimes learned from finished jobs (fallback: time limit)
// and each job's requested cores (Slurm allocates what was requested, so
// unlike HTA's per-category resource use there is nothing to learn), and
// hire for the burstable work still waiting when new nodes would be ready,
// all of it in one resize: when the expander's choice cannot grow enough,
// its next choice among the groups that still can hires for the jobs the
// cores hired so far do not hold whole (a job runs within one group).
// When nothing would wait and cores would be spare, drain cloud nodes (they
// power down when their jobs end).  A group's boot time is its latest
// measured one (request to running, as HTA times its worker-pods; at most
// twice the median of its recent ones, measured_boot_times.hpp), from the
// ledger's boots of open and closed instances, else its configured one; it times both
// the group's booting nodes and the window, which is the longest boot time
// of the groups that can grow.  Resizing actions are at least one window
// apart.
// With lambda given, only the nodes whose share of the shortage, waiting
// one more boot window (the earliest a later hire could serve it), costs
// more than the node over that window are hired (WaitingCostGate).
// Parameters: expander (least-waste), lambda (money per waiting core-hour;
// unset = no gate).
class BootWindowPolicy final : public Policy {
public:
    static constexpr std::string_view kName = "boot-window";
    explicit BootWindowPolicy(PolicyParams& params);
    std::string_view name() const override { return kName; }
    Decision decide(const ClusterState& state, const Clock& clock) override;
    void observe(const JobEnd& end) override
    {
        runtimes_.observe(end);
        waits_.observe(end);
    }

private:
    std::unique_ptr<Expander> expander_;
    RuntimeEstimator runtimes_;
    WaitingCostGate gate_; // and its record of the groups' boot times
    LocalWaitEstimator waits_; // for the gate
    Time next_resize_ = 0;
};

} // namespace burst

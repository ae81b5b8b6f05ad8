#pragma once
#include "model/cluster_state.hpp"
#include "model/node_group.hpp"
#include "policy/runtime/measured_boot_times.hpp"

#include <cstdint>
#include <vector>

namespace burst {

// A waiting job as the gate weighs it: its cores, how long it is expected
// to wait for local cores from now (local_wait_estimator.hpp; +inf: not
// within the forecast), and its expected runtime.
struct WaitingJob {
    std::uint64_t cores = 0;
    Seconds wait = 0;
    Seconds runtime = 0;
};

// λ for the scale-up policies (threshold, boot-window, pfa), whose papers
// size the cloud without pricing waiting: of the nodes a scale-up wants,
// only those are hired whose jobs' waiting, priced at λ per core-hour, is
// worth more than the nodes cost.  A job saves λ · cores · (wait − boot) /
// 3600 (it still waits for the boot, which its nodes bill too).  A job at
// least a node wide is weighed against its own whole nodes, a narrower one
// against its share of one; a last node the worthy narrow jobs fill only
// partly must be paid for whole by them.  λ = +∞ (the default) is no gate:
// the policy behaves as in its paper.  doc/policies.md, section "The lambda
// cost gate".
class WaitingCostGate {
public:
    explicit WaitingCostGate(double lambda) : lambda_(lambda) {}
    bool off() const;
    double lambda() const { return lambda_; }
    // Learns the groups' boot times from the nodes that came up; a policy
    // calls it once a decision, before weighing.
    void observe(const ClusterState& state) { boots_.observe(state); }
    const MeasuredBootTimes& boot_times() const { return boots_; }

    // Of `nodes` nodes of `group` wanted for the `waiting` jobs, how many
    // are worth hiring.  Nodes beyond what the waiting jobs fill (headroom)
    // never are.
    std::uint32_t worth(const NodeGroup& group, std::uint32_t nodes, std::vector<WaitingJob> waiting) const;

    // The wait beyond which a job of `cores` running `runtime` pays for
    // whole nodes of `group` on its own: forecasting waits further is moot.
    Seconds horizon(const NodeGroup& group, std::uint64_t cores, Seconds runtime) const;

    // horizon() for hires from `group` alone, as LocalWaitEstimator::waiting
    // takes it.
    auto horizon_for(const NodeGroup& group) const
    {
        return [this, &group](std::uint64_t cores, Seconds runtime) { return horizon(group, cores, runtime); };
    }

private:
    double lambda_;
    MeasuredBootTimes boots_;
};

} // namespace burst

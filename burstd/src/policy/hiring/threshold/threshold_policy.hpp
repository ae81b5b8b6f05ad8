#pragma once
#include "policy/expander/expander.hpp"
#include "policy/policy.hpp"
#include "policy/runtime/local_wait_estimator.hpp"
#include "policy/policy_params.hpp"
#include "policy/cost/waiting_cost_gate.hpp"

#include <deque>
#include <memory>
#include <string>
#include <utility>

namespace burst {

// Kubernetes-HPA-like, on one of three metrics:
//   utilization (default): queue-aware; size the cloud so that busy plus
//     waiting cores would fill the site to the target,
//       desired cloud cores = (busy + waiting) / target − local cores.
//   hpa: the HPA's own rule (Zheng et al. eq. 1): the cores of jobs running
//     on nodes that are up, all the autoscaler can see, over the cores the
//     site has or is getting; desired cores = busy / target, and no change
//     while the ratio of utilization to target is within HPA's 10%
//     tolerance of 1.  Blind to the queue: it grows only as fast as busy
//     cores do.  (Its own name, not `utilization`: a burstd.conf that
//     names the default keeps what it had.)
//   queue (KEDA-style queue length): keep the cloud cores in use plus one
//     node per target_queue waiting jobs.
// Scale up at once, scale down only to the highest desire seen over the
// stabilization window (HPA's downscale stabilization), and only idle
// nodes.  With lambda given, a scale-up node is hired only if the waiting
// jobs it would take are worth it over one boot time (WaitingCostGate);
// headroom with nothing waiting for it is then not bought.
// Parameters: metric (utilization), target_utilization (0.8, with
// utilization or hpa), target_queue (4 waiting jobs per node),
// stabilization seconds (300), expander (price), lambda (money per waiting
// core-hour; unset = no gate).
class ThresholdPolicy final : public Policy {
public:
    static constexpr std::string_view kName = "threshold";
    explicit ThresholdPolicy(PolicyParams& params);
    std::string_view name() const override { return kName; }
    Decision decide(const ClusterState& state, const Clock& clock) override;
    void observe(const JobEnd& end) override { waits_.observe(end); }

private:
    enum class Metric { Utilization, Hpa, Queue };
    static Metric metric_named(const std::string& name);

    Metric metric_;
    double target_;
    std::uint32_t target_queue_;
    Seconds stabilization_;
    std::unique_ptr<Expander> expander_;
    WaitingCostGate gate_;
    LocalWaitEstimator waits_; // for the gate
    std::deque<std::pair<Time, std::uint64_t>> history_; // (time, desired cloud cores)
};

} // namespace burst

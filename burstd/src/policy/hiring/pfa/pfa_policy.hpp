#pragma once
#include "policy/budget/budget_split.hpp"
#include "policy/expander/expander.hpp"
#include "policy/runtime/local_wait_estimator.hpp"
#include "policy/policy.hpp"
#include "policy/policy_params.hpp"
#include "policy/hiring/pfa/throughput_profile.hpp"
#include "policy/cost/waiting_cost_gate.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace burst {

// Ilyushkin et al.'s Performance-Feedback Autoscaler with budget
// constraints.  Each decision closes one autoscaling interval (the paper's:
// the time between two invocations; `interval` is the budget's period,
// which the paper makes the same):
//  S1 measures every node group's throughput over the interval and smooths
//     it into resource-type ratios (smoothing=ma over depth intervals, or
//     ewma with alpha).  The paper reserves each node for one user and
//     measures each user's throughput over its own nodes.  In Slurm any
//     account's job runs on any node, so a group's throughput is measured
//     once, from every account's jobs over all its powered-on cores, and
//     each account's demand divides by it: one account's completions over
//     all the cores would count the other accounts' nodes as its own, and
//     the summed demands would count shared nodes once per account.
// Then, per account with work:
//  S2 buys the profile those ratios give with the account's budget (the
//     site budget split by fair-share, or one budget per account);
//  S3 predicts demand with token propagation over the jobs' dependencies
//     (plain queue demand when there are none), less the account's part of
//     the local cores;
//  S4 scales the profile down to that demand, or inflates it towards it
//     with cheaper nodes;
//  S5 hires the difference, cheapest group first, routes waiting jobs into
//     the free cores of nodes that are up or booting;
//  S6 releases idle nodes beyond the target, those nearest their billing
//     boundary first (and only within release_window of it), then those
//     idle the longest (the paper's two keys; with per-second billing every
//     node past MinBilled is at its boundary, and idle time alone decides).
// Hard cap: the instances billed never cost more than budget per interval,
// whatever the interval's alignment, because hires stop where the hourly
// rate of every billed instance would exceed budget × 3600 / interval: the
// nodes powered on, and those powered down before the end of their billed
// period (MinBilled, or the hour begun with per-hour billing), which the
// provider bills to its end.  Spend is counted as the simulator's budget
// metric counts it: each instance's billed time at its price, pro rata.  Jobs
// are routed only into existing or hired cores, so Slurm never resumes
// nodes on its own for them.
// With lambda given, S5 hires (the profile's nodes and those S4 inflated it
// with alike) only the nodes whose waiting jobs' expected local wait is
// worth them (WaitingCostGate, as threshold and boot-window): the budget
// bounds what pfa may spend, λ what waiting is worth spending on.
// Parameters: budget (100, site currency per interval), interval (3600 s),
// scope (site: split across accounts; account: each account's own),
// split (fairshare|shares|equal), smoothing (ma|ewma), depth (10 intervals),
// alpha (0.7), release_window (60 s), expander (least-waste), lambda (money
// per waiting core-hour; unset = no gate, the paper's policy).
class PfaPolicy final : public Policy {
public:
    static constexpr std::string_view kName = "pfa";
    explicit PfaPolicy(PolicyParams& params);
    std::string_view name() const override { return kName; }
    Decision decide(const ClusterState& state, const Clock& clock) override;
    void observe(const JobEnd& end) override;

private:
    void close_interval(const std::vector<double>& on_cores);

    double budget_;
    Seconds interval_;
    bool per_account_;
    BudgetSplit split_;
    Smoothing smoothing_;
    std::uint32_t depth_;
    double alpha_;
    Seconds release_window_;
    std::unique_ptr<Expander> expander_;
    WaitingCostGate gate_;
    LocalWaitEstimator waits_; // for the gate

    std::vector<std::string> group_names_;
    std::map<std::string, std::string> group_of_node_; // CLOUD node → its group
    std::optional<ThroughputProfile> profile_; // of group_names_
    // Cores of jobs that ended per node group since the last decision.
    std::map<std::string, double> completed_;
    std::vector<double> last_on_cores_; // per group at the last decision
    bool started_ = false;
    // When each node idle at the last decision was first seen idle (nodes
    // idle at the first decision count from then).
    std::unordered_map<std::string, Time> idle_since_;
};

} // namespace burst

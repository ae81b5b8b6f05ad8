#pragma once
#include "policy/budget/budget_split.hpp"
#include "policy/expander/expander.hpp"
#include "policy/runtime/local_wait_estimator.hpp"
#include "policy/policy.hpp"
#include "policy/policy_params.hpp"
#include "policy/hiring/pfa/throughput_profile.hpp"
#include "policy/cost/waiting_cost_gate.hpp"
#include "policy/site/node_group_index.hpp"
#include "policy/site/site_view_builder.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace burst {

// Ilyushkin et al.'s Performance-Feedback Autoscaler with budget
// constraints.  Each decision closes one autoscaling interval: it measures
// each node group's throughput and smooths it into resource-type ratios
// (S1); per account with work it buys the profile those ratios give with
// the account's budget (S2), predicts demand by token propagation over the
// jobs' dependencies (S3), fits the profile to it (S4), hires the difference
// cheapest group first (S5) and releases idle nodes beyond the target
// nearest their billing boundary (S6).  A group's throughput is measured
// once from every account's jobs, because in Slurm accounts share nodes
// the paper reserves per user.  Hires stop where the hourly price of every
// billed instance would exceed budget × 3600 / interval, and jobs are
// routed only into cores that are on or hired, so Slurm never resumes a
// node the cap did not allow.  Steps, departures from the paper and
// measurements: doc/policies.md, section "pfa".
class PfaPolicy final : public Policy {
public:
    static constexpr std::string_view kName = "pfa";
    explicit PfaPolicy(PolicyParams& params);
    std::string_view name() const override { return kName; }
    Decision decide(const ClusterState& state, const Clock& clock) override;
    void observe(const JobEnd& end) override;

private:
    SiteViewBuilder site_; // each decision's view, in storage kept from the last
    NodeGroupIndex group_index_; // for quiet()
    void follow_groups(const ClusterState& state);
    // Nothing to hire, release or route, whatever the profile says: no
    // lambda gate; nothing of a group on; no job waiting, nor one awaiting a
    // dependency (token propagation counts those); and the jobs running fit
    // the local cores, which then meet every account's demand.
    bool quiet(const ClusterState& state);
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
    std::vector<double> quiet_on_cores_; // all zero, kept across quiet decisions
    bool started_ = false;
    // When each node idle at the last decision was first seen idle (nodes
    // idle at the first decision count from then).
    std::unordered_map<std::string, Time> idle_since_;
};

} // namespace burst

#pragma once
// One burstd cycle: ClusterState from the latest snapshot, the configured
// node groups and the ledger's instances; the decision cycle burstsim runs
// too (policy/cycle/decision_cycle.hpp), whose actions this class applies
// through the Slurm actuator and logs with their reasons.  Groups that may
// not launch have their powered-down nodes drained first.  The last
// decisions are kept for `burstctl status`.  Every few cycles the instance
// manager reconciles ledger, providers and Slurm.

#include "app/config/burstd_config.hpp"
#include "app/daemon_seams.hpp"
#include "app/instances/instance_manager.hpp"
#include "app/cycle/job_why.hpp"
#include "app/cycle/launch_fence.hpp"
#include "app/metrics/run_metrics_feed.hpp"
#include "app/warm/interactive_holds.hpp"
#include "app/warm/placeholder_pool.hpp"
#include "app/warm/scavenger_placement.hpp"
#include "app/config/slurm_conf_timeouts.hpp"
#include "ledger/ledger.hpp"
#include "ledger/ledger_window.hpp"
#include "policy/budget/budget_cap.hpp"
#include "policy/budget/budget_spend.hpp"
#include "policy/cycle/decision_cycle.hpp"
#include "policy/threads/scaling_book.hpp"
#include "policy/budget/spend_tracker.hpp"
#include "slurm/slurm_actuator.hpp"

#include <jansson.h>

#include <cstdint>
#include <deque>
#include <map>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace burst {

struct AppliedAction {
    Time time = 0;
    std::string action; // "route job 12 -> cloud", "power up c1"
    std::string reason;
    std::string error;  // empty when Slurm accepted it
};

// A node group's warm pool as of the last cycle.
struct WarmPoolStats {
    std::optional<std::uint32_t> keep; // what Policy=warm last asked; none before its first forecast
    std::size_t placeholders_running = 0;
    std::size_t placeholders_queued = 0;
    std::size_t scavengers_running = 0; // on the group's nodes
};

// A partition's cores kept for interactive jobs (Interactive=), as of the last cycle.
struct InteractiveStats {
    std::uint32_t keep = 0;
    InteractiveReadiness readiness;
};

// What the cycles have done so far, for metrics.
struct PolicyCycleStats {
    std::uint64_t runs = 0;          // cycles with a snapshot (the policy chain ran)
    double decide_seconds_sum = 0;   // time inside the policies' decide() (wall)
    double last_decide_seconds = 0;
    // (kind: route|hire|release|threads|placeholders|interactive_holds, outcome: applied|failed) -> count
    std::map<std::pair<std::string, std::string>, std::uint64_t> actions;
    std::size_t fenced_nodes = 0; // drained by the launch fence (launch_fence.hpp), as of the last cycle
    // Groups with a warm pool target, placeholders or scavenger work.
    std::map<std::string, WarmPoolStats> warm;
    // Partitions with an Interactive= reserve or holds of burstd.
    std::map<std::string, InteractiveStats> interactive;
};

class PolicyCycle {
public:
    PolicyCycle(PolicyChain chain, Ledger& ledger, SlurmActuator& actuator, InstanceManager& instances,
                std::uint32_t reconcile_every, std::unique_ptr<ThreadStage> threads = nullptr);
    PolicyCycle(const PolicyCycle&) = delete; // its chain times decide() into stats_
    PolicyCycle& operator=(const PolicyCycle&) = delete;

    void run(const CycleContext& ctx);
    void observe(const JobEnd& end);
    // Told about every job the cycle made cloud-eligible (the allocation follower).
    void set_route_observer(std::function<void(JobId)> observer) { routed_ = std::move(observer); }
    // With a launcher, a routed job's nodes are powered up and launched at
    // once: the first free powered-down nodes of its group in configuration
    // (= slurm.conf) order, which Slurm then prefers because they are no
    // longer powered down.  Its boot overlaps Slurm's scheduling delay (up to
    // batch_sched_delay) instead of following it.  Skipped when the group has
    // up or booting room for the job, or the same decision hires for the group.
    using Launcher = std::function<void(const std::vector<std::string>& nodes)>;
    void set_route_launcher(Launcher launcher) { route_launcher_ = std::move(launcher); }
    // Told the thread advice for new --threads=auto jobs (job_submit/burst's
    // table, replaced whole) when it changed, after resend_advice(), and
    // every kAdviceResendCycles cycles; told an empty table once when a
    // reload removed ThreadPolicy=.
    using AdviceSink = std::function<void(const std::map<std::string, std::uint32_t>& threads)>;
    void set_advice_sink(AdviceSink sink) { advice_sink_ = std::move(sink); }
    // A plugin (re)connected: the next cycle sends the advice again.
    void resend_advice() { advice_resend_ = true; }
    static constexpr std::uint64_t kAdviceResendCycles = 20;
    static constexpr std::size_t kAdviceShown = 20; // categories whose advice status lists
    // A new configuration (SIGHUP) brings a new chain and thread policy.
    void replace_chain(PolicyChain chain, std::unique_ptr<ThreadStage> threads)
    {
        cycle_.replace_chain(timed(std::move(chain)), std::move(threads));
    }
    // Adds decisions, nodes by state, instances and spend to a status object;
    // run metrics with J at ObjectiveLambda= when it is set.
    void report(json_t* status, std::optional<double> objective_lambda) const;
    const PolicyCycleStats& stats() const { return stats_; }
    // What the decision cycle did in the last cycle that had a snapshot.
    const CycleOutcome& last_outcome() const { return last_outcome_; }
    const PlaceholderPool& placeholders() const { return placeholders_; }
    const ScalingBook& scaling() const { return cycle_.scaling(); }
    const ThreadStage* threads() const { return cycle_.threads(); } // none without ThreadPolicy=
    // The chain's policies, in order.
    std::vector<std::string> chain_names() const;
    // Each account's standing against its Budget= line, as of the last cycle.
    const std::vector<BudgetStanding>& budgets() const { return last_budgets_; }
    // Spend in the budget interval as of the last cycle.
    const SpendView& spend() const;
    // The per-run metrics burstsim reports, counted from `epoch` (burstd's start).
    void start_run_metrics(Time epoch) { run_metrics_.set_epoch(epoch); }
    const RunMetricsFeed& run_metrics() const { return run_metrics_; }
    // slurm.conf's SuspendTime bounds what an idle cloud node costs (Budget= lines).
    void set_slurm_timeouts(SlurmConfTimeouts timeouts) { timeouts_ = std::move(timeouts); }

    static constexpr std::size_t kKeptActions = 50;

private:
    class SlurmSink;
    PolicyChain timed(PolicyChain chain);
    void launch_for_route(const Job& job, const NodeGroup& group, ClusterState& state, const CycleContext& ctx);
    // Cancels running placeholders whose nodes real jobs waiting in a
    // group's partition can take (before the chain: the warm pool may ask
    // nothing for a tick after a start).
    void free_warm_nodes_for_waiting_jobs(const ClusterState& state, const CycleContext& ctx);
    // Without a warm link in the chain (a reload took it out), the
    // placeholders burstd left are cancelled and their nodes powered down.
    void release_orphaned_placeholders(const ClusterState& state, const CycleContext& ctx);
    // Logs and remembers what ScavengerPlacement did.
    void note_scavenger_steps(std::vector<ScavengerPlacement::Step> steps, const CycleContext& ctx);
    void count_warm_pools(const ClusterState& state);
    // Keeps the cores Interactive= names held for interactive jobs.
    void keep_interactive_holds(const ClusterState& state, const CycleContext& ctx);
    // Drains the resumable nodes of groups that may not launch (LaunchFence).
    void fence_stopped_groups(ClusterState& state, const CycleContext& ctx);
    void remember(AppliedAction a);

    PolicyCycleStats stats_;
    DecisionCycle cycle_;
    Ledger& ledger_;
    LedgerWindow ledger_window_;
    SlurmActuator& actuator_;
    InstanceManager& instances_;
    JobWhyPublisher whys_;
    AdviceSink advice_sink_;
    std::uint64_t advice_sent_run_ = 0;
    bool advice_resend_ = false;
    std::vector<std::string> scaling_errors_; // from restoring it, logged at the first cycle
    std::uint32_t reconcile_every_;
    std::uint64_t runs_ = 0; // cycles that had a snapshot
    std::deque<AppliedAction> recent_;
    std::function<void(JobId)> routed_;
    Launcher route_launcher_;
    std::vector<std::string> picked_;     // nodes powered up by this cycle so far
    std::vector<std::string> hiring_;     // groups the current decision hires for
    // The interval spend() counts in: reported_spend_interval of the Budget=
    // lines the last cycle ran with (as loaded, then as reloaded).
    Seconds spend_interval_ = kReportedSpendIntervalWithoutBudgets;
    BudgetSpend budget_spend_; // books spend_interval_ too, for spend()
    SlurmConfTimeouts timeouts_;
    std::vector<BudgetStanding> last_budgets_;
    std::vector<std::string> last_notes_;
    CycleOutcome last_outcome_;
    std::vector<Node> last_nodes_;
    std::vector<NodeGroup> last_groups_;
    LaunchFence fence_;
    RunMetricsFeed run_metrics_;
    PlaceholderPool placeholders_;
    InteractiveHolds interactive_;
    std::string interactive_hold_qos_; // the last InteractiveHoldQOS=, should a reload have taken it out
    ScavengerPlacement scavengers_;
};

} // namespace burst

#pragma once
// One decision cycle, the same code in burstd and burstsim: the state, the
// configured chain, the budget lines and the time in; ordered actions with
// their reasons out, applied through the caller's ActionSink.
//
//   0. With a bucket series (count_buckets), the state as the cycle finds
//      it is counted into it (policy/warm/buckets/bucket_series.hpp).
//   1. Jobs routed to a node group that may not launch and has no room for
//      them are unrouted, so that they can start elsewhere.
//   2. Each policy of the chain decides on the state (unless it has
//      nothing to do on such a site: Policy::wants_decision); the budget cap drops
//      or cuts what would break a Budget= line (what one link is allowed
//      counts against the next); the sink applies what is left, in order.
//   3. With a thread policy, pending --threads=auto jobs get their CPUs per
//      task for the tier the chain left them on, from the thread scaling
//      learned of their categories (policy/threads/thread_stage.hpp).
//
// What a site does around the cycle stays with it: burstd builds the state
// from the plugin's snapshot and its ledger, fences groups that may not
// launch and reconciles instances; burstsim builds it from its engine.

#include "model/clock.hpp"
#include "model/cluster_state.hpp"
#include "model/job.hpp"
#include "policy/budget/budget_cap.hpp"
#include "policy/cycle/action_sink.hpp"
#include "policy/cycle/policy_chain.hpp"
#include "policy/decision.hpp"
#include "policy/site/site_view.hpp"
#include "policy/threads/scaling_book.hpp"
#include "policy/threads/thread_stage.hpp"
#include "policy/warm/buckets/bucket_series.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace burst {

// The Budget= lines a cycle's cap enforces, and the spend booked so far in
// each line's current interval.
struct CycleBudget {
    std::vector<BudgetLimit> limits;
    SuspendTimes suspend_times; // per group: slurm.conf's SuspendTime of its partition
    IntervalSpend spent;
};

// One action as the cycle handed it to the sink.
struct CycleAction {
    std::string policy; // the link that asked for it ("cycle" for step 1)
    Action action;
    std::string error;  // the sink's answer: "" = it took effect
};

// Why a link did nothing (more), or what the budget cap took from it.
struct CycleNote {
    std::string policy;
    std::string text;
    bool budget = false; // the cap's note
};

struct CycleVerdict {
    std::string policy;
    JobVerdict verdict;
};

struct CycleOutcome {
    Time time = 0;
    std::vector<CycleAction> actions; // in the order they were applied
    std::vector<CycleVerdict> verdicts; // each link's, in chain order
    std::vector<CycleNote> notes;     // in order: a link's cap notes, then its own
    std::map<std::string, std::uint64_t> over_budget; // dropped per action kind
    std::vector<JobId> held_by_budget;                // jobs a link routed that the cap kept local
    std::vector<BudgetStanding> standings;            // with a budget
    bool advice_changed = false;                      // the thread policy's (threads()->advice())
};

class DecisionCycle {
public:
    explicit DecisionCycle(PolicyChain chain, std::unique_ptr<ThreadStage> threads = nullptr)
        : chain_(std::move(chain)), threads_(std::move(threads))
    {
    }

    // The sink leaves in `state` what each applied action changed, so that
    // every link decides on the site as the earlier ones left it.  Without
    // `budget`, nothing is capped.
    CycleOutcome run(ClusterState& state, const Clock& clock, const CycleBudget* budget, ActionSink& sink);
    // A job ended: every policy of the chain may learn from it, and the
    // thread scaling of its category is.
    void observe(const JobEnd& end);

    // A new configuration brings a new chain.
    void replace_chain(PolicyChain chain, std::unique_ptr<ThreadStage> threads)
    {
        chain_ = std::move(chain);
        threads_ = std::move(threads);
        set_notes_read(notes_read_);
    }
    // Whether the caller reads the policies' notes in run()'s outcome
    // (Policy::set_notes_read); the budget cap's are always there.
    void set_notes_read(bool read)
    {
        notes_read_ = read;
        for (auto& policy : chain_)
            policy->set_notes_read(read);
    }
    bool notes_read() const { return notes_read_; }
    const PolicyChain& chain() const { return chain_; }
    const ThreadStage* threads() const { return threads_.get(); }
    ThreadStage* threads() { return threads_.get(); }
    ScalingBook& scaling() { return scaling_; }
    const ScalingBook& scaling() const { return scaling_; }
    // Every cycle from now on adds its state's bucket counts to `series`.
    void count_buckets(BucketSeries series) { buckets_.emplace(std::move(series)); }
    // nullptr unless count_buckets was called.
    BucketSeries* buckets() { return buckets_ ? &*buckets_ : nullptr; }

    static constexpr const char* kCycleLink = "cycle";

private:
    // `found`: the view of the state as the cycle found it, built here if
    // the cycle has none yet.
    void unroute_from_stopped_groups(ClusterState& state, std::optional<SiteView>& found, ActionSink& sink,
                                     CycleOutcome& out);

    PolicyChain chain_;
    std::unique_ptr<ThreadStage> threads_;
    ScalingBook scaling_; // each category's thread scaling, from its completed runs
    std::optional<BucketSeries> buckets_;
    bool notes_read_ = true;
};

} // namespace burst

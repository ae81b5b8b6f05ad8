#pragma once
// One decision cycle, the same code in burstd and burstsim: the state, the
// configured chain, the budget lines and the time in; ordered actions with
// their reasons out, applied through the caller's ActionSink.
//
//   1. Jobs routed to a node group that may not launch and has no room for
//      them are unrouted, so that they can start elsewhere.
//   2. Each policy of the chain decides on the state; the budget cap drops
//      or cuts what would break a Budget= line (what one link is allowed
//      counts against the next); the sink applies what is left, in order.
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
};

class DecisionCycle {
public:
    explicit DecisionCycle(PolicyChain chain) : chain_(std::move(chain)) {}

    // The sink leaves in `state` what each applied action changed, so that
    // every link decides on the site as the earlier ones left it.  Without
    // `budget`, nothing is capped.
    CycleOutcome run(ClusterState& state, const Clock& clock, const CycleBudget* budget, ActionSink& sink);
    // A job ended: every policy of the chain may learn from it.
    void observe(const JobEnd& end);

    // A new configuration brings a new chain.
    void replace_chain(PolicyChain chain) { chain_ = std::move(chain); }
    const PolicyChain& chain() const { return chain_; }

    static constexpr const char* kCycleLink = "cycle";

private:
    void unroute_from_stopped_groups(ClusterState& state, ActionSink& sink, CycleOutcome& out);

    PolicyChain chain_;
};

} // namespace burst

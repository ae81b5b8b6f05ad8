#pragma once
// A recorded stream of the plugin's messages replayed through a decision
// cycle: what a chain would have decided, cycle by cycle, on the snapshots a
// real Slurm produced (burstsim --snapshots).  Nothing is applied — the next
// snapshot shows what Slurm did then — so every action is taken as given.
//
// The state each cycle decides on is what the snapshot and the site's
// configuration say: the site's node groups, no instances known beyond the
// nodes' states, no spend booked, no launch back-off.  One cycle runs per
// snapshot, at the snapshot's time; job ends reach the chain when they
// arrive, between cycles, as they reach burstd's.

#include "model/clock.hpp"
#include "model/job.hpp"
#include "model/node_group.hpp"
#include "model/snapshot.hpp"
#include "policy/budget/budget_cap.hpp"
#include "policy/cycle/decision_cycle.hpp"

#include <variant>
#include <vector>

namespace burst {

using RecordedMessage = std::variant<Snapshot, JobEnd>;

struct ReplaySite {
    std::vector<NodeGroup> groups;
    std::vector<BudgetLimit> budgets;
    SuspendTimes suspend_times;  // per group, for the budget cap
    Seconds resume_timeout = 60; // slurm.conf's: bounds what a boot may cost
    Seconds cycle_interval = 30; // burstd.conf's CycleInterval
};

struct ReplayedCycle {
    Time time = 0;
    std::uint64_t seq = 0; // of the snapshot decided on
    CycleOutcome outcome;
};

std::vector<ReplayedCycle> replay_snapshots(const std::vector<RecordedMessage>& messages, const ReplaySite& site,
                                            DecisionCycle& cycle);

} // namespace burst

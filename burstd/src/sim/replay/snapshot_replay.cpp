#include "sim/replay/snapshot_replay.hpp"

#include "policy/budget/budget_spend.hpp"
#include "policy/cycle/applied_action.hpp"
#include "policy/cost/cloud_cost_bound.hpp"

#include <optional>

namespace burst {
namespace {

// Takes every action as given: the recording already holds what happened.
// The state shows what Slurm would show next of a route, an unroute or a
// hire, as burstd's sink leaves it, for the chain's later links.
class RecordingSink final : public ActionSink {
public:
    std::string apply(const Action& action, ClusterState& state) override
    {
        reflect_applied(action, state);
        return "";
    }
};

} // namespace

std::vector<ReplayedCycle> replay_snapshots(const std::vector<RecordedMessage>& messages, const ReplaySite& site,
                                            DecisionCycle& cycle)
{
    std::vector<ReplayedCycle> cycles;
    BudgetSpend spend;
    for (const auto& message : messages) {
        if (const auto* end = std::get_if<JobEnd>(&message)) {
            spend.job_ended(*end);
            cycle.observe(*end);
            continue;
        }
        const Snapshot& snapshot = std::get<Snapshot>(message);
        ClusterState state;
        state.snapshot = snapshot;
        state.groups = site.groups;
        for (auto& g : state.groups)
            g.longest_boot = slurm_boot_bound(site.resume_timeout, site.cycle_interval);
        std::optional<CycleBudget> budget;
        if (!site.budgets.empty())
            budget = CycleBudget{site.budgets, site.suspend_times,
                                 spend.update(snapshot.time, site.budgets, {}, state.snapshot.jobs, state.groups)};
        ManualClock clock(snapshot.time);
        RecordingSink sink;
        cycles.push_back(
            ReplayedCycle{snapshot.time, snapshot.seq, cycle.run(state, clock, budget ? &*budget : nullptr, sink)});
    }
    return cycles;
}

} // namespace burst

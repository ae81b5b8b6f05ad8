#pragma once
// burstctl explain JOBID: what burstd's last decision cycle concluded about
// one job and why, in numbers — each link's verdict (expected local start,
// cloud cost, cost of waiting, the group priced), the actions that named the
// job, the budget left to its account, and the state of the node groups it
// could use — plus a one-line summary a user can read.

#include "model/job.hpp"
#include "model/node.hpp"
#include "model/node_group.hpp"
#include "model/snapshot.hpp"
#include "policy/budget/budget_cap.hpp"
#include "policy/cycle/decision_cycle.hpp"
#include "policy/health/group_health.hpp"
#include "policy/threads/scaling_book.hpp"
#include "policy/threads/thread_stage.hpp"

#include <jansson.h>

#include <map>
#include <string>
#include <vector>

namespace burst {

struct ExplanationInput {
    const Snapshot* snapshot = nullptr; // the latest one burstd received
    const CycleOutcome* outcome = nullptr; // the last cycle's
    std::vector<std::string> chain;        // the policies, in order
    const std::vector<BudgetStanding>* budgets = nullptr;
    const std::vector<NodeGroup>* groups = nullptr;
    std::map<std::string, GroupHealthView> health;
    std::map<std::string, std::uint32_t> hire_limits;
    const ScalingBook* scaling = nullptr; // what the job's category's runs say of its threads
    const ThreadStage* threads = nullptr; // ThreadPolicy=, if any: its allowed counts
    Time now = 0;
};

// Fills `out`; returns "" or why the job cannot be explained.
std::string explain_job(JobId id, const ExplanationInput& in, json_t* out);

// The explanation as text, for burstctl explain without --json.
void write_explanation_text(std::ostream& out, json_t* explanation);

} // namespace burst

#pragma once
// The hard budget cap every policy's actions pass through, in burstd and
// burstsim alike: Budget=account Amount= Interval= lines limit what
// SpendTracker books to an account per interval; "*" stands for every
// account without a line of its own, including "" (capacity no job uses).
// A cap that counted only money spent would let a burst of routes overrun
// it before the first bill, so an action passes only if the account's spend
// in the interval, plus the bounded remaining cost of what it already has
// on cloud nodes, plus the action's own bound (cloud_cost_bound.hpp) stays
// within Amount; commitments do not reset at an interval boundary.
// RouteToCloud is checked against its job's account and against "" (what
// its nodes may cost that the job does not pay), HireNodes against "" and
// cut to the nodes that fit, KeepPlaceholders like a hire of the nodes it
// would power up (check_keep); other actions pass.  Routes are checked before
// hires, and a hire of a group whose routes were all dropped is dropped
// unless a job already waits there: nodes no job may use would idle the
// budget away.  One BudgetCap lives for one decision cycle and recomputes
// every commitment from the state; what it lets one policy do counts
// against the next.  doc/policies.md, "Billing bounds and the budget cap".

#include "model/clock.hpp"
#include "model/cluster_state.hpp"
#include "policy/cost/cloud_cost_bound.hpp"
#include "policy/decision.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace burst {

struct BudgetLimit {
    std::string account; // "*" = every account without a line of its own, and ""
    double amount = 0;   // site currency per interval
    Seconds interval = 0;
};

// Spend in the current interval of each interval length the limits use:
// interval -> account -> amount ("" = capacity no job used).
using IntervalSpend = std::map<Seconds, std::map<std::string, double>>;

// Slurm's SuspendTime per node group (idle nodes power down after it);
// std::nullopt, or a group not listed, = never.
using SuspendTimes = std::map<std::string, std::optional<Seconds>>;

// The line that limits `account`: its own, else "*", else none.
const BudgetLimit* budget_limit_for(const std::vector<BudgetLimit>& limits, const std::string& account);

// Money compared after summing many small amounts: a hair over is not over.
bool within_budget(double total, double amount);

// Where an account stands, for status: what a limit allows, what is spent,
// what is promised.  `unbounded` names a job whose cost cannot be bounded.
struct BudgetStanding {
    std::string account;
    BudgetLimit limit;
    double spent = 0;
    double committed = 0;
    std::string unbounded;
};

class BudgetCap {
public:
    BudgetCap(std::vector<BudgetLimit> limits, SuspendTimes suspend_times, const ClusterState& state,
              const IntervalSpend& spent, Time now);

    // Drops (or, for HireNodes, shrinks) the actions that would break a
    // budget and returns one note per account that lost some, naming the
    // amounts; what passes counts as committed from now on.
    std::vector<std::string> filter(Decision& decision);

    std::vector<BudgetStanding> standings() const;
    // What filter() dropped so far, per action kind (action_kind): burstd's
    // over_budget outcome.  A HireNodes cut short is not dropped.
    const std::map<std::string, std::uint64_t>& dropped() const { return dropped_; }

private:
    struct Account {
        const BudgetLimit* limit = nullptr;
        double spent = 0;
        double committed = 0;
        std::string unbounded; // why its commitments have no bound
    };
    const BudgetLimit* limit_for(const std::string& account) const;
    Account* account(const std::string& name); // nullptr without a budget
    // CLOUD node name -> its group, and whether it is still booting.
    using CloudNodes = std::unordered_map<std::string, std::pair<const NodeGroup*, bool>>;
    void commit_running(const Job& job, const CloudNodes& cloud, Time now);
    void commit_routed(const Job& job);
    void commit_unused_capacity(const CloudNodes& cloud, Time now);
    // What a route of `job` to `group` may add to "" (std::nullopt: no bound).
    std::optional<double> route_unused(const Job& job, const NodeGroup& group) const;
    // The free cores of open nodes a route may take are taken.
    void take_open_cores(const Job& job, const NodeGroup& group);
    // Why the action may not go ahead (empty = it may, committed already booked).
    std::string check_route(const RouteToCloud& route);
    // Shrinks `hire` to what fits (saying so in `reason` and `notes`).
    std::string check_hire(HireNodes& hire, std::string& reason, std::vector<std::string>& notes);
    // Cuts a warm pool to what "" pays for: the nodes it would power up are
    // hires, and once "" is spent or committed to its line, no node is kept
    // on beyond what real work holds.  Never drops the action: the pool
    // must still shrink.
    void check_keep(KeepPlaceholders& keep, std::string& reason, std::vector<std::string>& notes);

    std::vector<BudgetLimit> limits_;
    std::optional<Seconds> suspend_time(const NodeGroup& group) const;

    SuspendTimes suspend_times_;
    const ClusterState& state_;
    const IntervalSpend& spent_;
    std::map<std::string, Account> accounts_;
    std::unordered_map<JobId, const Job*> jobs_;
    std::unordered_map<JobId, double> committed_by_job_;
    std::unordered_map<JobId, double> unused_by_job_; // "" committed for a routed job's nodes
    struct OpenCapacity {
        OpenNodes nodes;
        std::uint64_t free_cpus = 0; // what routes have not taken yet
    };
    std::map<std::string, OpenCapacity> open_; // per node group
    // Groups a pending job already waits for (routed earlier, or submitted
    // to the group's partition), not held back by anything else.
    std::set<std::string> awaited_;
    std::map<std::string, std::uint64_t> dropped_;
};

} // namespace burst

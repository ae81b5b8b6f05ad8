#pragma once
// What burstd exposes on MetricsPort, rendered from plain copies of its
// counters (taken on the io thread) so rendering is pure and testable.

#include "app/instances/allocation_follower.hpp"
#include "policy/health/group_health.hpp"
#include "app/instances/placement_backoff.hpp"
#include "app/cycle/policy_cycle.hpp"
#include "app/instances/provider_outcomes.hpp"
#include "app/metrics/run_metrics_feed.hpp"
#include "ingest/snapshot_server.hpp"
#include "ledger/ledger.hpp"
#include "policy/budget/spend_tracker.hpp"
#include "provider/http/request_budget.hpp"

#include <optional>
#include <string>
#include <vector>

namespace burst {

struct BurstdMetricsInput {
    IngestCounters ingest;
    // The state messages burstd applied, and the deltas it could not.
    std::uint64_t whole_snapshots = 0;
    std::uint64_t deltas = 0;
    std::uint64_t refused_deltas = 0;
    std::uint64_t resyncs = 0;
    std::uint64_t job_ends = 0;
    std::uint64_t cycles = 0;
    PolicyCycleStats policy;
    ProviderOutcomes::CallCounts provider_calls;
    std::vector<RequestBudgetView> request_budgets; // each cloud provider's API requests and throttling
    std::map<std::string, std::uint64_t> launch_requests; // by group
    std::map<std::string, std::uint64_t> repairs;
    std::vector<std::string> groups;         // every configured group gets its series, zeros included
    std::vector<LedgerRecord> open_records;  // instances by group and state
    SpendView spend;
    AllocationFollowerCounters early_launch;
    std::size_t provider_work_in_flight = 0;
    Time now = 0;                                          // for the back-offs' remaining time
    std::map<std::string, GroupHealthView> group_health;   // circuit breakers by group
    std::vector<PlacementBackoffView> placement_backoffs;  // instance type x zone short of capacity
    RunMetrics run;                                        // what burstsim reports, since run_since
    Time run_since = 0;
    std::optional<double> objective_lambda;                // ObjectiveLambda=; none: no J(λ)
};

std::string render_metrics(const BurstdMetricsInput& in);

} // namespace burst

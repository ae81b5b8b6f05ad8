#pragma once
// What a replay cost and how long jobs waited: the numbers `burstsim
// --compare` puts side by side.

#include "sim/engine/simulator.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace burst {

// One account's spend under a budget line, as SpendTracker booked it.
struct BudgetAccountMetrics {
    double spend = 0;          // over the run
    double max_spend = 0;      // the most in one interval
    std::size_t violations = 0; // intervals booked over the line's amount
};

// One budget line over the run: the accounts it covers (its own; for "*"
// each account without a line of its own, and "") each held to its amount
// per interval.
struct BudgetLineMetrics {
    BudgetLimit limit;
    std::size_t intervals = 0;  // intervals of its length that had a booking
    std::size_t violations = 0; // (interval, account) bookings over the amount
    double spend = 0;
    double max_spend = 0;       // the most one account was booked in one interval
    std::map<std::string, BudgetAccountMetrics> accounts; // those booked anything
};

struct SimMetrics {
    std::size_t jobs = 0;
    std::size_t cloud_jobs = 0;
    double cloud_cost = 0;
    std::map<std::string, double> account_cost; // "" = boot, idle and billing overhead
    double mean_wait = 0;   // seconds from eligible (submit, or last parent's end) to running, boot included
    double median_wait = 0;
    double p95_wait = 0;
    // The same of the jobs that ran in the cloud (boot waits included): what a warm pool shortens.
    double median_cloud_wait = 0;
    double p95_cloud_wait = 0;
    // Interactive jobs (TraceJob::interactive): their time to start, as a
    // wait; the batch jobs' waits; what Interactive= holds kept idle.
    std::size_t interactive_jobs = 0;
    double median_interactive_start = 0;
    double p95_interactive_start = 0;
    double mean_batch_wait = 0;
    double median_batch_wait = 0;
    double held_core_hours = 0;
    // Scavenger work on warm nodes (SimConfig::scavenger_run): the time the
    // pool held nodes idle, the runs done there, and those cut short.
    double warm_held_core_hours = 0;
    double scavenger_done_core_hours = 0;
    double scavenger_lost_core_hours = 0;
    double mean_bounded_slowdown = 0; // max(1, (wait + run) / max(run, tau))
    double makespan = 0;              // last end − first submit
    double cloud_core_seconds = 0;
    double waiting_core_hours = 0;    // Σ cores × wait / 3600
    double lambda = 0;
    double objective = 0;             // J(λ) = cloud cost + λ × waiting core-hours
    // HTA (Zheng et al.): waste = core-seconds of powered-on cloud nodes not
    // running a job (boot, idle, drain); shortage = core-seconds of demand
    // waiting (Σ cores × wait).
    double waste_core_seconds = 0;
    double shortage_core_seconds = 0;
    // The waste by cause: booting (launch to ready), idle (up, nothing
    // allocated; idle_tail: the idle periods that ended in a power-down),
    // and partial: the free cores of nodes running fewer jobs than cores.
    // The rest of the waste is work lost to interruptions (below).
    double waste_boot_core_seconds = 0;
    double waste_idle_core_seconds = 0;
    double waste_idle_tail_core_seconds = 0;
    double waste_partial_core_seconds = 0;
    // PFA (Ilyushkin et al.) elasticity over the decision-cycle samples, R =
    // local cores + every cloud node's cores: a_U, a_O average missing /
    // surplus fraction of R; t_U, t_O fraction of samples under / over;
    // samples with demand beyond R are left out (ProvisioningSamples).
    double a_under = 0, a_over = 0, t_under = 0, t_over = 0;
    // Budget intervals (aligned on the first submit, running until the last
    // instance's billed time ends) whose cloud spend, each instance's billed
    // time (launch to the end of its last billed period, InstanceSpan) pro
    // rata at the group's price, exceeded the budget.
    std::size_t budget_intervals = 0;
    std::size_t budget_violations = 0;
    double max_interval_spend = 0; // the most any one budget interval cost
    // With budget lines (SimConfig::budgets): spend and violations per line
    // and account, and the actions the cap dropped per kind.
    std::vector<BudgetLineMetrics> budget_lines;
    std::map<std::string, std::uint64_t> over_budget;
    // Spot interruptions and the core-seconds of work they threw away (also
    // part of the waste: powered, paid for, and no job finished by it).
    std::uint64_t interruptions = 0;
    double lost_core_seconds = 0;
    // Profit under Smowton et al.'s reward schemes (sim/report/reward_profit.hpp);
    // filled in by the caller, which knows the scheme's parameters.
    double profit_time = 0;
    double profit_throughput = 0;
};

// J(λ) for another λ than the one the metrics were computed with.
inline double objective_at(const SimMetrics& m, double lambda)
{
    return m.cloud_cost + lambda * m.waiting_core_hours;
}

// Quantiles are nearest-rank.  `tau` is the bounded-slowdown threshold (s).
// With budget > 0, spend is checked per `budget_interval` seconds.
SimMetrics compute_metrics(const SimResult& result, double lambda, double tau = 10, double budget = 0,
                           Seconds budget_interval = 86400);

} // namespace burst

#pragma once
// The per-run metrics burstsim reports and burstd exports, defined once: an
// accumulator both feed event by event (a job started after waiting, a job
// ended, cloud core-seconds powered and busy, one decision cycle's demand and
// supply, money spent, a budget interval's spend), so the simulator's table
// and the daemon's /metrics cannot drift apart.  Pure arithmetic: no clock,
// no I/O.
//
// Waits are kept in a WaitHistogram (bounded memory for a daemon that runs
// for months); with `keep_waits` (burstsim) every wait is kept too and the
// quantiles are exact.

#include "model/clock.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace burst {

// Waits in fixed log-spaced buckets: 0, then upper bounds 1 s × √2^k up to
// 2^22 s (48.5 days), then +Inf.  A quantile is the nearest rank's bucket,
// read as the geometric middle of its bounds and clamped to the waits seen:
// for waits of at least 1 s it is within a factor 2^(1/4) (≈ ±19%) of the
// exact nearest-rank wait; waits in (0, 1] read as 0.71 s.
class WaitHistogram {
public:
    static constexpr std::size_t kFiniteBuckets = 46; // 0, then 1 s × √2^k for k = 0..44
    // Upper bounds (s) of the finite buckets, ascending; a last bucket is +Inf.
    static const std::array<double, kFiniteBuckets>& bounds();

    void add(Seconds wait);
    std::uint64_t count() const { return count_; }
    // Per bucket, not cumulative; the last entry is the +Inf bucket.
    const std::array<std::uint64_t, kFiniteBuckets + 1>& counts() const { return counts_; }
    // Nearest-rank estimate (0 without waits).
    double quantile(double q) const;

private:
    std::array<std::uint64_t, kFiniteBuckets + 1> counts_{};
    std::uint64_t count_ = 0;
    double min_ = 0, max_ = 0;
};

// PFA's elasticity (Ilyushkin et al.) over decision-cycle samples of demand
// (cores of eligible, unfinished jobs) and supply (cores that could run
// them), relative to R = every local and cloud core (`capacity`).  As in the
// paper (§5.3), samples whose demand exceeds R are left out (counted in
// beyond_capacity): no supply could meet them, so they would measure the
// workload, not the autoscaler, and a_U would no longer be a fraction of R.
struct ProvisioningSamples {
    std::uint64_t samples = 0;          // measured: demand within R
    std::uint64_t beyond_capacity = 0;  // left out: demand > R
    std::uint64_t under_samples = 0;  // demand > supply
    std::uint64_t over_samples = 0;   // supply > demand
    double under_cores = 0;           // Σ max(demand − supply, 0)
    double over_cores = 0;            // Σ max(supply − demand, 0)
    double capacity = 0;              // local cores + every cloud node's cores (PFA's R)

    // Set capacity first.
    void add(double demand, double supply);
    bool measured() const { return samples > 0 && capacity > 0; }
    // a_U, a_O: average missing / surplus fraction of R; t_U, t_O: fraction
    // of samples under / over.  0 until measured().
    double a_under() const { return measured() ? under_cores / (double(samples) * capacity) : 0; }
    double a_over() const { return measured() ? over_cores / (double(samples) * capacity) : 0; }
    double t_under() const { return measured() ? double(under_samples) / double(samples) : 0; }
    double t_over() const { return measured() ? double(over_samples) / double(samples) : 0; }
};

class RunMetrics {
public:
    // `tau` is the bounded-slowdown threshold (s).
    explicit RunMetrics(double tau = 10, bool keep_waits = false);

    // Events.  Waiting is eligible (submit, or the last parent's end) to
    // running, a cloud boot included.
    void submitted(Time submit);
    void job_started(std::uint32_t cpus, Seconds wait);
    void job_ended(Seconds wait, Seconds run, Time end);
    void cloud_powered(double core_seconds); // cloud nodes powered on (booting, busy, idle, draining)
    void cloud_busy(double core_seconds);    // of those, running jobs
    void cloud_cost(double amount);          // every cloud cost, attributable or not
    void account_cost(const std::string& account, double amount); // the part a job of `account` used
    // A budget interval's spend so far (`key` names the budget): a new
    // `interval_start` counts one more interval; the interval counts as a
    // violation once, when its spend first exceeds `budget`.
    void budget_spend(const std::string& key, Time interval_start, double spent, double budget);
    ProvisioningSamples& provisioning() { return provisioning_; }

    // Readings.
    std::uint64_t jobs_started() const { return started_; }
    std::uint64_t jobs_ended() const { return ended_; }
    double wait_sum() const { return wait_sum_; }
    double mean_wait() const { return started_ ? wait_sum_ / double(started_) : 0; }
    // Nearest rank: exact with keep_waits, else the histogram's estimate.
    double wait_quantile(double q) const;
    const WaitHistogram& waits() const { return histogram_; }
    double bounded_slowdown_sum() const { return bsld_sum_; }
    double mean_bounded_slowdown() const { return ended_ ? bsld_sum_ / double(ended_) : 0; }
    double makespan() const; // last end − first submit
    double waiting_core_hours() const { return waiting_core_hours_; } // Σ cores × wait / 3600
    // HTA (Zheng et al.): shortage = demand waiting (Σ cores × wait); waste =
    // powered cloud core-seconds no job ran in.  Not quite the paper's waste
    // (idle cores of ready nodes, fixed ones included, over the workload's
    // runtime; sim/scenario/zheng_scenario.cpp reports that one): what bursting pays
    // for, boots and idle tails included, local nodes left out.
    double shortage_core_seconds() const { return waiting_core_hours_ * 3600; }
    double cloud_busy_core_seconds() const { return cloud_busy_; }
    double cloud_powered_core_seconds() const { return cloud_powered_; }
    double waste_core_seconds() const;
    const ProvisioningSamples& provisioning() const { return provisioning_; }
    double total_cloud_cost() const { return cloud_cost_; }
    // Per account; "" holds what no job's account used (boot, idle, billing
    // rounding): the rest of the total.
    std::map<std::string, double> account_costs() const;
    // J(λ) = cloud cost + λ × waiting core-hours, λ in money per core-hour.
    double objective(double lambda) const { return cloud_cost_ + lambda * waiting_core_hours_; }
    std::uint64_t budget_intervals() const { return budget_intervals_; }
    std::uint64_t budget_violations() const { return budget_violations_; }
    double max_interval_spend() const { return max_interval_spend_; }

private:
    struct BudgetInterval {
        Time start = 0;
        bool violated = false;
    };

    double tau_;
    bool keep_waits_;
    std::vector<double> all_waits_;
    WaitHistogram histogram_;
    std::uint64_t started_ = 0, ended_ = 0;
    double wait_sum_ = 0, bsld_sum_ = 0, waiting_core_hours_ = 0;
    bool any_submit_ = false, any_end_ = false;
    Time first_submit_ = 0, last_end_ = 0;
    double cloud_powered_ = 0, cloud_busy_ = 0;
    ProvisioningSamples provisioning_;
    double cloud_cost_ = 0;
    std::map<std::string, double> account_cost_;
    std::map<std::string, BudgetInterval> budgets_;
    std::uint64_t budget_intervals_ = 0, budget_violations_ = 0;
    double max_interval_spend_ = 0;
};

} // namespace burst

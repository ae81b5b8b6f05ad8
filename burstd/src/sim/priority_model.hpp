#pragma once
// Slurm's priority/multifactor plugin (22.05) as burstsim needs it: the age,
// classic fair-share and job-size factors, and the decayed usage behind
// fair-share, for a flat association tree (every account directly under
// root, its users at Fairshare=parent, so a job's fair-share factor is its
// account's).  Follows src/plugins/priority/multifactor/
// priority_multifactor.c:
//
//   decay per second  d = 1 − 0.693 / PriorityDecayHalfLife   (_decay_thread)
//   every PriorityCalcPeriod, at time t (last pass at t'):
//     1. usage_norm(a) = usage_raw(a) / usage_raw(root)          (set_assoc_usage_norm)
//        usage_efctv(a) = usage_norm(a)     (parent is root; _set_assoc_usage_efctv)
//        F(a) = 2^(−usage_efctv(a) / shares_norm(a) / FairShareDampeningFactor)
//                                                        (priority_p_calc_fs_factor)
//     2. every usage_raw ×= d^(t − t')                               (_apply_decay)
//     3. a running job adds cpus × Δ × d^Δ, Δ = t − max(start, t')  (_apply_new_usage)
//     4. a pending job's priority is recomputed with the F of step 1
//   a job that ends adds cpus × Δ × d^Δ, Δ = end − max(start, t')  (priority_p_job_end)
//   shares_norm(a) = shares(a) / Σ shares           (_normalize_assoc_shares_traditional)
//   priority = ⌊Wage × min(1, age / PriorityMaxAge) + Wfs × F + Wjs × size⌋, at least 1
//   (_get_priority_internal, set_priority_factors); age counts from eligibility
//   (accrue time); size favours large jobs, (1/nodes + cpus/cores) / 2, or
//   with PriorityFavorSmall small ones, ((nodes − 1)/nodes + (cores − cpus)/cores) / 2,
//   a job asking for one node at least (sbatch -n without -N).
// Usage is in CPU-seconds (billable TRES without TRESBillingWeights).

#include "model/share.hpp"
#include "sim/priority_config.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace burst {

class MultifactorPriority {
public:
    // `accounts`: every account of the workload (shares-only accounts are
    // added from the config); site_cores/site_nodes: the whole cluster, for
    // the job-size factor.
    MultifactorPriority(const PriorityConfig& config, const std::vector<std::string>& accounts,
                        std::uint64_t site_cores, std::uint32_t site_nodes);

    // Index of an account given to the constructor (or in the shares).
    std::uint32_t account(const std::string& name) const;
    std::size_t account_count() const { return names_.size(); }

    // Steps 1 and 2 of a pass at `now`; then charge_running for every running
    // job and priority() for every pending one.
    void begin_pass(Time now);
    // Step 3: no usage on the first pass (Slurm has no last run yet).
    void charge_running(std::uint32_t account, std::uint32_t cpus, Time start);
    // A job that ends (or is requeued) at `end` after running since `start`.
    void charge_ended(std::uint32_t account, std::uint32_t cpus, Time start, Time end);
    // Usage was added since the last pass, so the next one changes F.
    bool usage_since_pass() const { return usage_since_pass_; }

    // `eligible` = the job's accrue time (now for a job still blocked).
    std::uint32_t priority(Time now, Time eligible, std::uint32_t account, std::uint32_t cpus) const;
    double fairshare_factor(std::uint32_t account) const { return factor_[account]; }
    double usage(std::uint32_t account) const { return raw_[account]; }

    // The account associations as the plugin exports them (user empty,
    // parent root), updated in place: same order every call.
    void fill_shares(std::vector<Share>& out) const;

private:
    double charge(std::uint32_t cpus, Time from, Time to) const;

    PriorityConfig config_;
    double decay_ = 1; // per second
    std::uint64_t site_cores_ = 1;
    std::uint32_t site_nodes_ = 1;
    std::vector<std::string> names_; // sorted
    std::vector<double> raw_shares_;
    std::vector<double> norm_shares_;
    std::vector<double> raw_;    // usage_raw, CPU-seconds, decayed
    std::vector<double> norm_;   // usage_norm at the last pass
    std::vector<double> factor_; // F at the last pass
    bool passed_ = false;
    Time last_pass_ = 0;
    Time pass_from_ = 0; // previous pass, while one is running
    double whole_period_decay_ = 1; // d^(this pass − previous pass)
    bool charge_pass_ = false;
    bool usage_since_pass_ = false;
};

} // namespace burst

#pragma once
// Slurm's priority/multifactor plugin (22.05) as burstsim needs it: the age,
// fair-share and job-size factors, and the decayed usage behind fair-share,
// for a two-level association tree: every account directly under root, each
// user under its account (Fair Tree: an account at Fairshare=parent hands its
// users to root's level, see sim/priority/fair_tree.hpp).  Sacctmgr's user root under
// account root is left out (a trace has no jobs of it).  Follows
// src/plugins/priority/multifactor/priority_multifactor.c:
//
//   decay per second  d = 1 − 0.693 / PriorityDecayHalfLife   (_decay_thread)
//   every PriorityCalcPeriod, at time t (last pass at t'):
//     classic (PriorityFlags=NO_FAIR_TREE), users at Fairshare=parent:
//       1. usage_norm(a) = usage_raw(a) / usage_raw(root)        (set_assoc_usage_norm)
//          usage_efctv(a) = usage_norm(a)   (parent is root; _set_assoc_usage_efctv)
//          F(a) = 2^(−usage_efctv(a) / shares_norm(a) / FairShareDampeningFactor)
//                                                        (priority_p_calc_fs_factor)
//          and a job's F is its account's
//       2. every usage_raw ×= d^(t − t')                             (_apply_decay)
//       3. a running job adds cpus × Δ × d^Δ, Δ = t − max(start, t')
//          (_apply_new_usage; none on the first pass)
//     Fair Tree (the default; fair_tree_decay):
//       1. decay as classic's step 2, 2. usage as classic's step 3, and on
//          the first pass too (from the job's start),
//       3. LF and ranks over the tree (sim/priority/fair_tree.hpp); a job's F is its
//          user association's
//     then a pending job's priority is recomputed with those F
//   a job that ends adds cpus × Δ × d^Δ, Δ = end − max(start, t')  (priority_p_job_end),
//   to its user association, its account and root alike
//   classic shares_norm(a) = shares(a) / Σ shares   (_normalize_assoc_shares_traditional)
//   priority = ⌊Wage × min(1, age / PriorityMaxAge) + Wfs × F + Wjs × size⌋, at least 1
//   (_get_priority_internal, set_priority_factors); age counts from eligibility
//   (accrue time); size favours large jobs, (1/nodes + cpus/cores) / 2, or
//   with PriorityFavorSmall small ones, ((nodes − 1)/nodes + (cores − cpus)/cores) / 2,
//   a job asking for one node at least (sbatch -n without -N).
// Usage is in CPU-seconds (billable TRES without TRESBillingWeights).

#include "model/share.hpp"
#include "sim/priority/fair_tree.hpp"
#include "sim/priority/priority_config.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace burst {

// What in the config's shares the classic algorithm is not modelled for
// (user shares: it models every user at Fairshare=parent; an account at
// Fairshare=parent: it models every account under root), as an error
// message in --shares' terms; "" when there is nothing.
std::string shares_needing_fair_tree(const PriorityConfig& config);

class MultifactorPriority {
public:
    // `users`: every (account, user) of the workload (associations only in
    // the config's shares are added); site_cores/site_nodes: the whole
    // cluster, for the job-size factor.  Throws std::invalid_argument with
    // shares_needing_fair_tree's message when there is one.
    MultifactorPriority(const PriorityConfig& config, const std::vector<std::pair<std::string, std::string>>& users,
                        std::uint64_t site_cores, std::uint32_t site_nodes);

    // Index of the user association (account, user) a job runs under.
    std::uint32_t association(const std::string& account, const std::string& user) const;

    // Decay (classic: after computing the factors); then charge_running for
    // every running job, end_charges(), and priority() for every pending one.
    void begin_pass(Time now);
    void charge_running(std::uint32_t association, std::uint32_t cpus, Time start);
    // Fair Tree ranks with the pass's usage; classic has its factors already.
    void end_charges();
    // A job that ends (or is requeued) at `end` after running since `start`.
    void charge_ended(std::uint32_t association, std::uint32_t cpus, Time start, Time end);
    // Usage was added since the last pass, so the next one changes F.
    bool usage_since_pass() const { return usage_since_pass_; }

    // `eligible` = the job's accrue time (now for a job still blocked).
    std::uint32_t priority(Time now, Time eligible, std::uint32_t association, std::uint32_t cpus) const;
    double fairshare_factor(std::uint32_t association) const { return factor_[association]; }
    // Raw usage of the user association and of its account.
    double usage(std::uint32_t association) const { return raw_[user_node_[association]]; }
    double account_usage(std::uint32_t association) const;
    // Fair Tree's LF of the user association and of its account at the last
    // ranking (0 under classic).
    long double level_fs(std::uint32_t association) const;
    long double account_level_fs(std::uint32_t association) const;

    // The associations as burstd's exporter sends them, updated in place
    // (same order every call): classic one per account (user empty, parent
    // root); Fair Tree each account followed by its users (parent the
    // account), accounts with factor 0 as slurmctld leaves them.  `out` is
    // the vector of the previous call (or a new one): left alone when no
    // usage or factor changed since.
    void fill_shares(std::vector<Share>& out);

private:
    double charge(std::uint32_t cpus, Time from, Time to) const;
    void add_usage(std::uint32_t association, double amount);
    void classic_factors();
    std::uint32_t account_of(std::uint32_t association) const { return user_account_[association]; }

    PriorityConfig config_;
    double decay_ = 1; // per second
    std::uint64_t site_cores_ = 1;
    std::uint32_t site_nodes_ = 1;
    FairTree tree_;
    std::vector<std::string> accounts_;                         // sorted
    std::vector<std::uint32_t> account_node_;                   // in tree_
    std::vector<std::uint32_t> account_raw_shares_;             // kFairshareParent = Fairshare=parent
    std::vector<std::pair<std::string, std::string>> users_; // (account, user), sorted
    std::vector<std::uint32_t> user_node_;                      // in tree_
    std::vector<std::uint32_t> user_account_;                   // index in accounts_
    std::vector<std::uint32_t> user_raw_shares_;                // kFairshareParent = Fairshare=parent
    std::vector<double> raw_;           // usage_raw per tree_ association, CPU-seconds, decayed
    std::vector<double> norm_;          // usage_norm per tree_ association at the last pass
    std::vector<double> account_factor_; // classic F per account at the last pass
    std::vector<double> factor_;        // F per user association at the last pass
    bool passed_ = false;
    Time last_pass_ = 0;
    Time pass_from_ = 0; // previous pass, while one is running
    double whole_period_decay_ = 1; // d^(this pass − previous pass)
    bool charge_pass_ = false;
    bool usage_since_pass_ = false;
    std::uint64_t changes_ = 0;       // usage or factor updates so far
    std::uint64_t filled_changes_ = ~std::uint64_t(0); // changes_ at the last fill_shares
};

} // namespace burst

#pragma once
// Runtime prediction from finished jobs, for forecasting local start times.
//
// A job with a user and a time limit is expected to run its limit × a
// runtime/limit ratio estimated level by level: over all jobs, its
// category, its user's jobs of its name, its kind (user, name and limit),
// each level's mean shrunk toward its parent's estimate by Bühlmann
// credibility, the weight learned from how much that level's keys differ
// against how much each one's runs scatter (credibility_level.hpp); knowing
// nothing, its limit; always capped at the limit.  A mean, not the last two
// runs (Tsafrir, Etsion and Feitelson, TPDS 2007, predict for backfilling,
// where a short guess is corrected): what bursting or holding a job costs
// is linear in its runtime, so the policy needs the expected runtime, and
// the last two are a median-like guess that runtimes' heavy tail leaves
// far short of it.  Replayed at submission over LCG-2005 (no waits), the
// jobs the last two predicted under 10 min ran 10.1 times as long as
// predicted in sum, those predicted 10 min-1 h 4.2 times; the credibility
// means are within 1.0-1.6 of their sums in every such bucket.  A new kind
// gets its name's or category's ratio × its own limit, not what the user
// ran elsewhere; a few runs of a kind move it only as far as the level's
// keys are known to differ.  In forecast's replay of LCG (bench/
// trace_table.sh's flags), routed jobs predicted under half their runtime
// carried 4,168 of the 5,095 cloud bill (their own work 2,190; the rest
// the idle cores of nodes they kept on), 3,830 of it jobs predicted from
// their own kind's or name's last two.
// Without a limit (or a user): the last two of the kind, of the name, else
// of any of the user's jobs, the category's mean runtime, the mean over all
// jobs, else unknown (0); with a limit but no user, the category's ratio ×
// the limit, else the ratio over all jobs × the limit, else the limit.
//
// Finished jobs alone are a biased sample when a user submits a batch of
// long jobs: the short ones finish first (and none of the batch has
// finished while its first jobs run), so the prediction falls back to the
// user's earlier, shorter jobs.  The jobs of the batch already running
// say more: each will run at least as long as it has, and a job that has
// run t is expected to run about t more (heavy-tailed runtimes' mean
// residual life grows with age).  So no job with a time limit is
// predicted shorter than twice the median elapsed time of the running jobs
// of its user, name and limit (noted this cycle).  On LCG-2005 forecast
// routed 2,573 jobs that ran over 4 h predicted under 30 min (37,500
// core-h), most of them of kinds with no finished run yet.  Not without a
// limit: jobs that share user and name but give no limit are less alike,
// and their running ones are a length-biased sample (the long ones are the
// ones seen running), so the floor overpredicts them; on the traces of
// bench/trace_table.sh without limits (NASA-iPSC, and lublin-256, which
// has no users either) it made forecast 1.5% and 5% worse at λ = half the
// core-hour price.
//
// max_error (Smowton et al.'s uniform window: a job ends uniformly within
// [(1 − e)·E, (1 + e)·E] of its prediction E) is learned too: the 80th
// percentile of |actual − E| / E over the last 512 finished jobs, each
// measured against the prediction made before its own end was learned,
// capped to [0, 1].
//
// JobEnd carries no user or limit, so the model remembers the jobs it was
// shown (note()) for two decision cycles; ends of jobs it never saw teach
// only the category mean.

#include "model/clock.hpp"
#include "model/job.hpp"
#include "policy/runtime/credibility_level.hpp"
#include "policy/runtime/recent_keys.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace burst {

class RuntimeRatioModel {
public:
    // A max_error in [0, 1] fixes it; a negative one means learn it.
    explicit RuntimeRatioModel(double max_error = -1) : fixed_max_error_(max_error) {}
    // A new decision cycle at `now`: jobs noted two cycles ago and not since
    // are forgotten, and running jobs are noted afresh.
    void begin_cycle(Time now);
    void note(const Job& job);
    void observe(const JobEnd& end);

    Seconds expected(const Job& job) const;
    double max_error() const;
    // Expected seconds left for a job that has run `elapsed` of an expected
    // `expected` (0 = unknown) with `limit` (0 = none), ending uniformly in
    // the max_error window; past the window, midway to its limit, or without
    // a limit as long again as it has run (heavy-tailed runtimes' mean
    // residual life grows with age).  +inf when nothing bounds it.
    Seconds remaining(Seconds elapsed, Seconds expected, Seconds limit) const;

    std::size_t finished() const { return finished_; }
    // Keys held per user, name, kind and category (bounded: recent_keys.hpp).
    std::size_t learned_keys() const
    {
        return user_last_.size() + user_name_last_.size() + user_kind_last_.size() + category_ratio_.size() +
               category_runtime_.size() + category_level_.keys() + name_level_.keys() + kind_level_.keys();
    }

private:
    struct Seen {
        std::string user;
        std::string name;
        std::string category;
        Seconds limit = 0;
    };
    struct Mean {
        std::uint64_t count = 0;
        double value = 0;
        void add(double x)
        {
            ++count;
            value += (x - value) / std::min(double(count), kRecentRuns); // recent-weighted once warm
        }
    };
    struct LastTwo {
        Seconds a = 0, b = 0;
        unsigned n = 0;
        void add(Seconds x)
        {
            b = a;
            a = x;
            n = n < 2 ? n + 1 : 2;
        }
    };
    // A job's runtime/limit ratio estimated at each level, each from its
    // parent's; `unknown` stands for the ratio over all jobs before any.
    struct Chain {
        double all, category, name, kind;
    };
    Chain chain(const std::string& user, const std::string& name, const std::string& category, Seconds limit,
                double unknown) const;
    Seconds predict(const std::string& user, const std::string& name, const std::string& category,
                    Seconds limit) const;
    // Twice the median elapsed time of this cycle's running jobs of `kind`; 0 without any.
    Seconds running_floor(const std::string& kind) const;

    std::unordered_map<JobId, Seen> seen_, previous_;
    RecentKeys<LastTwo> user_last_;
    RecentKeys<LastTwo> user_name_last_; // user '\n' job name
    RecentKeys<LastTwo> user_kind_last_; // user '\n' job name '\n' limit
    Time now_ = 0;
    std::unordered_map<std::string, std::vector<Seconds>> running_elapsed_; // per kind, this cycle
    mutable std::unordered_map<std::string, Seconds> running_floor_;          // computed from it on first use
    RecentKeys<Mean> category_ratio_, category_runtime_;
    // runtime/limit ratios of jobs with a user and a limit, by level
    CredibilityLevel category_level_, name_level_, kind_level_;
    Mean all_ratio_, all_runtime_;
    std::vector<double> errors_; // ring of relative errors
    std::size_t error_next_ = 0;
    std::size_t finished_ = 0;
    double fixed_max_error_;
    mutable double max_error_cache_ = -1;
};

} // namespace burst

#pragma once
// Runtime prediction from finished jobs, for forecasting local starts and
// pricing bursts.  A job with a user and a time limit runs its limit × a
// runtime/limit ratio estimated over all jobs, its category, the user's jobs
// of its name and its kind (user, name, limit), each level shrunk toward its
// parent by credibility (credibility_level.hpp): a mean, not the last two
// runs, because what bursting or holding a job costs is linear in its
// runtime and heavy tails leave the last two far short of the mean.  No
// such job is predicted shorter than twice the median elapsed time of its
// kind's running jobs: while a batch of long jobs runs, the finished ones
// are the short ones.  Without a limit: the last two runs (Tsafrir et al.),
// then category and global means.  doc/policies.md, "Runtime estimation".
//
// JobEnd carries no user or limit, so the model remembers the jobs it was
// shown (note()) for two decision cycles; ends of jobs it never saw teach
// only the category and global means.

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
        // The keys of its user's levels, "" without a user: user '\n' name,
        // and that '\n' limit.  Built once a job, not at every prediction.
        std::string name_key;
        std::string kind_key;
        std::uint64_t cycle = 0; // the last cycle that noted it

        Seen() = default;
        Seen(const std::string& user, const std::string& name, const std::string& category, Seconds limit);
        // Brings a job noted before up to date; the keys only if they changed.
        void update(const Job& job);
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
    Chain chain(const Seen& job, double unknown) const;
    Seconds predict(const Seen& job) const;
    // Twice the median elapsed time of this cycle's running jobs of `kind`; 0 without any.
    Seconds running_floor(const std::string& kind) const;

    std::unordered_map<JobId, Seen> seen_; // noted this cycle or the last
    std::uint64_t cycle_ = 0;
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

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
    // A job noted this cycle, predicted without being looked up again:
    // valid until the next begin_cycle() or observe().
    class Noted {
        friend class RuntimeRatioModel;
        Noted() = default;
        std::uint32_t identity_ = 0;
    };

    // A max_error in [0, 1] fixes it; a negative one means learn it.
    explicit RuntimeRatioModel(double max_error = -1) : fixed_max_error_(max_error) {}
    // Its identities remember places inside its own levels.
    RuntimeRatioModel(const RuntimeRatioModel&) = delete;
    RuntimeRatioModel& operator=(const RuntimeRatioModel&) = delete;
    // A new decision cycle at `now`: jobs noted two cycles ago and not since
    // are forgotten, and running jobs are noted afresh.
    void begin_cycle(Time now);
    Noted note(const Job& job);
    void observe(const JobEnd& end);

    Seconds expected(const Job& job) const;
    Seconds expected(Noted job) const { return predict(identities_[job.identity_]); }
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
    static constexpr std::uint32_t kNotInterned = UINT32_MAX;
    // What a prediction depends on: jobs alike in user, name, category and
    // limit are predicted alike, and the thousands of jobs of a decision
    // share a few hundred identities.  Each keeps its learned prediction
    // until the model learns again.
    struct Identity {
        std::string user;
        std::string name;
        std::string category;
        Seconds limit = 0;
        // The keys of its user's levels, "" without a user: user '\n' name,
        // and that '\n' limit.
        std::string name_key;
        std::string kind_key;
        std::uint32_t kind = kNotInterned; // in kinds_; kNotInterned without a user or not interned
        // Where its keys are in the levels.
        mutable CredibilityLevel::Place category_place, name_place, kind_place;
        mutable Seconds learned_prediction = 0;
        mutable std::uint64_t learned_at = UINT64_MAX; // learned_ when it was computed

        Identity(const std::string& user, const std::string& name, const std::string& category, Seconds limit);
        bool differs(const Job& job) const;
    };
    struct Seen {
        std::uint32_t identity = 0;
        std::uint64_t cycle = 0; // the last cycle that noted it
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
    Chain chain(const Identity& job, double unknown) const;
    Seconds predict(const Identity& job) const;
    // What the learned levels predict, before the running floor.
    Seconds learned_prediction(const Identity& job) const;
    // Twice the median elapsed time of this cycle's running jobs of the job's kind; 0 without any.
    Seconds running_floor(const Identity& job) const;
    std::uint32_t intern(Identity identity);

    std::unordered_map<JobId, Seen> seen_; // noted this cycle or the last
    std::uint64_t cycle_ = 0;
    std::unordered_map<std::string, std::uint32_t> identity_ids_; // by category, user, name and limit
    std::vector<Identity> identities_;
    std::uint64_t learned_ = 0; // job ends observed
    // Elapsed times of a kind's (user, name, limit) running jobs, and the
    // floor computed from them on first use.
    struct KindRunning {
        std::vector<Seconds> elapsed;
        std::uint64_t cycle = 0; // the cycle `elapsed` belongs to
        Seconds floor = -1;      // -1: not computed since the last note
    };
    std::unordered_map<std::string, std::uint32_t> kind_ids_;
    mutable std::vector<KindRunning> kinds_;
    RecentKeys<LastTwo> user_last_;
    RecentKeys<LastTwo> user_name_last_; // user '\n' job name
    RecentKeys<LastTwo> user_kind_last_; // user '\n' job name '\n' limit
    Time now_ = 0;
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

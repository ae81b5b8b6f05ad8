#pragma once
// Runtime prediction from finished jobs, for forecasting local start times.
//
// A job with a time limit is expected to run (in order of preference):
//  - the mean of the last two runtimes of its user's jobs of the same name,
//    else of its user's jobs (Tsafrir, Etsion and Feitelson, "Backfilling
//    using system-generated predictions rather than user runtime estimates",
//    TPDS 2007: users repeat their jobs; a user running two kinds of job
//    repeats each kind: on LCG-2005 one user's jobs at one grid site ran
//    ~150 s and at another ~11 h, interleaved, and the user's last two
//    predicted the long ones short);
//  - its limit × the mean runtime/limit ratio learned for its category;
//  - its limit × the ratio learned over all jobs;
//  - its limit;
// always capped at the limit.  Without a limit: the last two as above, the
// category's mean runtime, the mean over all jobs, else unknown (0).
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

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace burst {

class RuntimeRatioModel {
public:
    // A max_error in [0, 1] fixes it; a negative one means learn it.
    explicit RuntimeRatioModel(double max_error = -1) : fixed_max_error_(max_error) {}
    // A new decision cycle: jobs noted two cycles ago and not since are forgotten.
    void begin_cycle();
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
            value += (x - value) / double(count < 50 ? count : 50); // recent-weighted once warm
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
    Seconds predict(const std::string& user, const std::string& name, const std::string& category,
                    Seconds limit) const;

    std::unordered_map<JobId, Seen> seen_, previous_;
    std::unordered_map<std::string, LastTwo> user_last_;
    std::unordered_map<std::string, LastTwo> user_name_last_; // user '\n' job name
    std::unordered_map<std::string, Mean> category_ratio_, category_runtime_;
    Mean all_ratio_, all_runtime_;
    std::vector<double> errors_; // ring of relative errors
    std::size_t error_next_ = 0;
    std::size_t finished_ = 0;
    double fixed_max_error_;
    mutable double max_error_cache_ = -1;
};

} // namespace burst

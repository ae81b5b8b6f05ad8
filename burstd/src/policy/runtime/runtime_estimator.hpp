#pragma once
// Per-category runtime model learned from finished jobs (HTA's "task
// category info"): the mean elapsed time of a category's jobs, for the
// categories seen most recently (recent_keys.hpp: the plugin's category
// hashes the job's name, so a site whose names never repeat makes a new
// one with every job).

#include "model/clock.hpp"
#include "model/job.hpp"
#include "policy/runtime/recent_keys.hpp"

#include <cstdint>
#include <string>

namespace burst {

class RuntimeEstimator {
public:
    void observe(const JobEnd& end);
    // Mean runtime of the job's category; else its time limit; else 0 (unknown).
    Seconds estimate(const Job& job) const;

private:
    struct Stats {
        std::uint64_t count = 0;
        double mean = 0;
    };
    RecentKeys<Stats> stats_;
};

} // namespace burst

#pragma once
// Per-category runtime model learned from finished jobs (HTA's "task
// category info"): the mean elapsed time of a category's jobs.

#include "model/clock.hpp"
#include "model/job.hpp"

#include <cstdint>
#include <string>
#include <unordered_map>

namespace burst {

class RuntimeEstimator {
public:
    void observe(const JobEnd& end);
    // Mean runtime of the job's category; else its time limit; else 0 (unknown).
    Seconds estimate(const Job& job) const;
    std::size_t categories() const { return stats_.size(); }

private:
    struct Stats {
        std::uint64_t count = 0;
        double mean = 0;
    };
    std::unordered_map<std::string, Stats> stats_;
};

} // namespace burst

#pragma once
// What became of the jobs a policy kept waiting for local cores: a job
// held because it was forecast to start locally soon may still burst later
// (the forecast slipped), having waited for nothing.  Learned from the
// jobs' ends (JobEnd says where a job ran): the share of the last
// `window` held jobs that ended in the cloud.

#include "model/job.hpp"

#include <cstddef>
#include <unordered_set>
#include <vector>

namespace burst {

class HoldOutcomes {
public:
    explicit HoldOutcomes(std::size_t window = 512, std::size_t min_samples = 16)
        : window_(window), min_samples_(min_samples)
    {
    }
    // The policy kept this job waiting (again) in this decision.
    void held(JobId job) { held_.insert(job); }
    // A job ended: if it was held, count where it ran.
    void observe(const JobEnd& end);
    // Share of the held jobs that burst after all; 0 until `min_samples`
    // held jobs have ended.
    double burst_share() const;
    std::size_t outstanding() const { return held_.size(); }

private:
    std::size_t window_;
    std::size_t min_samples_;
    std::unordered_set<JobId> held_;
    std::vector<bool> outcomes_; // ring: true = burst after all
    std::size_t next_ = 0;
    std::size_t bursts_ = 0;
};

} // namespace burst

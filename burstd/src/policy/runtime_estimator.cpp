#include "policy/runtime_estimator.hpp"

namespace burst {

void RuntimeEstimator::observe(const JobEnd& end)
{
    if (end.category.empty() || end.elapsed < 0)
        return;
    Stats& s = stats_[end.category];
    ++s.count;
    s.mean += (end.elapsed - s.mean) / double(s.count);
}

Seconds RuntimeEstimator::estimate(const Job& job) const
{
    auto it = stats_.find(job.category);
    if (it != stats_.end())
        return it->second.mean;
    return job.time_limit;
}

} // namespace burst

#include "policy/runtime/runtime_estimator.hpp"

namespace burst {

void RuntimeEstimator::observe(const JobEnd& end)
{
    if (end.category.empty() || end.elapsed < 0)
        return;
    Stats& s = stats_.write(end.category.text());
    ++s.count;
    s.mean += (end.elapsed - s.mean) / double(s.count);
}

Seconds RuntimeEstimator::estimate(const Job& job) const
{
    if (const Stats* s = stats_.find(job.category.text()))
        return s->mean;
    return job.time_limit;
}

} // namespace burst

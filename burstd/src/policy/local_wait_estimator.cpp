#include "policy/local_wait_estimator.hpp"

#include <algorithm>

namespace burst {

void LocalWaitEstimator::begin(const SiteView& view, Time now)
{
    model_.begin_cycle(now);
    for (const Job* job : view.running)
        model_.note(*job);
    const std::size_t n = std::min<std::size_t>(depth_, view.pending.size());
    for (std::size_t i = 0; i < n; ++i)
        model_.note(*view.pending[i]);
}

std::vector<Seconds> LocalWaitEstimator::starts(const SiteView& view, Time now, Seconds horizon) const
{
    std::vector<Seconds> out(view.pending.size(), kNotForeseen);
    std::vector<ForecastRunning> running;
    running.reserve(view.running.size());
    for (std::size_t r = 0; r < view.running.size(); ++r) {
        if (view.running_group[r] >= 0)
            continue;
        const Job* job = view.running[r];
        const Seconds elapsed = now - job->start_time;
        const Seconds left = model_.remaining(elapsed, model_.expected(*job), job->time_limit);
        const Seconds limit_left = job->time_limit > 0 ? std::max<Seconds>(0, job->time_limit - elapsed) : left;
        running.push_back(ForecastRunning{left, limit_left, job->total_cpus()});
    }
    std::vector<ForecastPending> queue;
    std::vector<std::size_t> index;
    const std::size_t n = std::min<std::size_t>(depth_, view.pending.size());
    queue.reserve(n);
    index.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (view.pending_group[i] >= 0) {
            out[i] = 0;
            continue;
        }
        const Job* job = view.pending[i];
        const Seconds expected = model_.expected(*job);
        queue.push_back(ForecastPending{job->total_cpus(), expected, job->time_limit > 0 ? job->time_limit : expected});
        index.push_back(i);
    }
    const auto s = forecast_local_starts(view.local_free_cpus, running, queue, backfill_window_, horizon);
    for (std::size_t k = 0; k < index.size(); ++k)
        out[index[k]] = s[k];
    return out;
}

} // namespace burst

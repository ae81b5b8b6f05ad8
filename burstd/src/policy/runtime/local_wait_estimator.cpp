#include "policy/runtime/local_wait_estimator.hpp"

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

std::vector<WaitingJob> LocalWaitEstimator::waiting(const SiteView& view, Time now,
                                                    const std::vector<std::size_t>& jobs,
                                                    const Horizon& horizon) const
{
    // The played queue's runtimes first: the jobs asked about are mostly
    // among them.
    const std::size_t n = std::min<std::size_t>(depth_, view.pending.size());
    std::vector<Seconds> runtime(n, 0);
    for (std::size_t i = 0; i < n; ++i)
        if (view.pending_group[i] < 0)
            runtime[i] = model_.expected(*view.pending[i]);
    std::vector<WaitingJob> out;
    out.reserve(jobs.size());
    Seconds furthest = 0;
    for (std::size_t i : jobs) {
        const Seconds r = i < n && view.pending_group[i] < 0 ? runtime[i] : model_.expected(*view.pending[i]);
        furthest = std::max(furthest, horizon(view.pending_cpus[i], r));
        out.push_back(WaitingJob{view.pending_cpus[i], i < n && view.pending_group[i] >= 0 ? 0 : kNotForeseen, r});
    }

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
    std::vector<std::size_t> played(n, 0); // pending index -> its place in `queue`
    queue.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (view.pending_group[i] >= 0)
            continue;
        const Job* job = view.pending[i];
        played[i] = queue.size();
        queue.push_back(
            ForecastPending{job->total_cpus(), runtime[i], job->time_limit > 0 ? job->time_limit : runtime[i]});
    }
    const auto start = forecast_local_starts(view.local_free_cpus, running, queue, backfill_window_, furthest);
    for (std::size_t k = 0; k < jobs.size(); ++k)
        if (jobs[k] < n && view.pending_group[jobs[k]] < 0)
            out[k].wait = start[played[jobs[k]]];
    return out;
}

} // namespace burst

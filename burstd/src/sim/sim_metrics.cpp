#include "sim/sim_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace burst {
namespace {

double nearest_rank(const std::vector<double>& sorted, double q)
{
    if (sorted.empty())
        return 0;
    const std::size_t rank = std::size_t(std::ceil(q * double(sorted.size())));
    return sorted[std::min(sorted.size(), std::max<std::size_t>(rank, 1)) - 1];
}

} // namespace

SimMetrics compute_metrics(const SimResult& result, double lambda, double tau)
{
    SimMetrics m;
    m.jobs = result.jobs.size();
    m.cloud_cost = result.cloud_cost;
    m.account_cost = result.account_cost;
    double attributed = 0;
    for (const auto& [account, cost] : result.account_cost)
        attributed += cost;
    m.account_cost[""] = std::max(0.0, result.cloud_cost - attributed);
    m.lambda = lambda;
    if (result.jobs.empty())
        return m;
    std::vector<double> waits;
    waits.reserve(result.jobs.size());
    double wait_sum = 0, bsld_sum = 0, last_end = result.first_submit;
    for (const auto& j : result.jobs) {
        const double wait = j.start - j.submit;
        const double run = j.end - j.start;
        waits.push_back(wait);
        wait_sum += wait;
        bsld_sum += std::max(1.0, (wait + run) / std::max(run, tau));
        last_end = std::max(last_end, j.end);
        m.waiting_core_hours += double(j.cpus) * wait / 3600;
        if (j.group >= 0) {
            ++m.cloud_jobs;
            m.cloud_core_seconds += double(j.cpus) * run;
        }
    }
    std::sort(waits.begin(), waits.end());
    m.mean_wait = wait_sum / double(waits.size());
    m.median_wait = nearest_rank(waits, 0.5);
    m.p95_wait = nearest_rank(waits, 0.95);
    m.mean_bounded_slowdown = bsld_sum / double(result.jobs.size());
    m.makespan = last_end - result.first_submit;
    m.objective = m.cloud_cost + lambda * m.waiting_core_hours;
    return m;
}

} // namespace burst

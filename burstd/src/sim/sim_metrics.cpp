#include "sim/sim_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace burst {
namespace {

std::vector<BudgetLineMetrics> budget_line_metrics(const SimResult& result)
{
    std::vector<BudgetLineMetrics> lines;
    for (const auto& limit : result.budget_limits) {
        BudgetLineMetrics line;
        line.limit = limit;
        for (const auto& booked : result.booked) {
            if (booked.interval != limit.interval)
                continue;
            ++line.intervals;
            for (const auto& [account, amount] : booked.accounts) {
                if (amount <= 0 || budget_limit_for(result.budget_limits, account) != &limit)
                    continue;
                BudgetAccountMetrics& a = line.accounts[account];
                const bool over = !within_budget(amount, limit.amount);
                a.spend += amount;
                a.max_spend = std::max(a.max_spend, amount);
                a.violations += over;
                line.spend += amount;
                line.max_spend = std::max(line.max_spend, amount);
                line.violations += over;
            }
        }
        lines.push_back(std::move(line));
    }
    return lines;
}

double nearest_rank(const std::vector<double>& sorted, double q)
{
    if (sorted.empty())
        return 0;
    const std::size_t rank = std::size_t(std::ceil(q * double(sorted.size())));
    return sorted[std::min(sorted.size(), std::max<std::size_t>(rank, 1)) - 1];
}

} // namespace

SimMetrics compute_metrics(const SimResult& result, double lambda, double tau, double budget,
                           Seconds budget_interval)
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
    m.interruptions = result.interruptions;
    m.budget_lines = budget_line_metrics(result);
    m.over_budget = result.over_budget;
    m.lost_core_seconds = result.lost_core_seconds;
    if (result.jobs.empty())
        return m;
    std::vector<double> waits;
    waits.reserve(result.jobs.size());
    double wait_sum = 0, bsld_sum = 0, last_end = result.first_submit;
    for (const auto& j : result.jobs) {
        const double wait = j.start - j.eligible;
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
    m.objective = objective_at(m, lambda);

    double powered = 0;
    for (const auto& span : result.instances) {
        powered += double(span.cpus) * (span.down - span.launched);
        m.waste_boot_core_seconds += double(span.cpus) * (span.ready - span.launched);
    }
    m.waste_core_seconds = std::max(0.0, powered - m.cloud_core_seconds);
    m.waste_idle_core_seconds = result.idle_core_seconds;
    m.waste_idle_tail_core_seconds = result.idle_before_down_core_seconds;
    m.waste_partial_core_seconds = std::max(
        0.0, m.waste_core_seconds - m.waste_boot_core_seconds - m.waste_idle_core_seconds - m.lost_core_seconds);
    m.shortage_core_seconds = m.waiting_core_hours * 3600;

    const ProvisioningSamples& p = result.provisioning;
    if (p.samples > 0 && p.capacity > 0) {
        const double n = double(p.samples);
        m.a_under = p.under_cores / (n * p.capacity);
        m.a_over = p.over_cores / (n * p.capacity);
        m.t_under = double(p.under_samples) / n;
        m.t_over = double(p.over_samples) / n;
    }

    if (budget > 0 && budget_interval > 0) {
        // Idle nodes outlive the last job: their uptime falls in the
        // intervals it belongs to, past the makespan if need be.
        double horizon = m.makespan;
        for (const auto& span : result.instances)
            horizon = std::max(horizon, span.down - result.first_submit);
        m.budget_intervals = std::size_t(std::floor(horizon / budget_interval)) + 1;
        std::vector<double> spend(m.budget_intervals, 0.0);
        for (const auto& span : result.instances) {
            const double rate = span.price_per_hour / 3600;
            const double from = std::max(0.0, span.launched - result.first_submit);
            const double to = std::max(from, span.down - result.first_submit);
            const std::size_t first = std::min(spend.size() - 1, std::size_t(from / budget_interval));
            for (std::size_t k = first; k < spend.size(); ++k) {
                const double lo = std::max(from, double(k) * budget_interval);
                const double hi = std::min(to, double(k + 1) * budget_interval);
                if (hi <= lo)
                    break;
                spend[k] += rate * (hi - lo);
            }
        }
        for (double s : spend) {
            // Sums of many pro-rata slices: a relative epsilon keeps a spend
            // that equals the budget from counting as a violation.
            m.budget_violations += s > budget * (1 + 1e-9);
            m.max_interval_spend = std::max(m.max_interval_spend, s);
        }
    }
    return m;
}

} // namespace burst

#include "sim/report/sim_metrics.hpp"

#include "model/run_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
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

// The nearest-rank quantile q of `values` (reordered); 0 when empty.
double nearest_rank(std::vector<double>& values, double q)
{
    if (values.empty())
        return 0;
    const auto rank = std::size_t(std::ceil(q * double(values.size())));
    const auto at = values.begin() + std::ptrdiff_t(std::max<std::size_t>(rank, 1) - 1);
    std::nth_element(values.begin(), at, values.end());
    return *at;
}

} // namespace

// The SimResult replayed into RunMetrics, the accumulator burstd feeds too:
// jobs in the order they ended, each starting and ending; instances in the
// order they went down; the budget intervals in time order.
SimMetrics compute_metrics(const SimResult& result, double lambda, double tau, double budget,
                           Seconds budget_interval)
{
    RunMetrics run(tau, true);
    run.cloud_cost(result.cloud_cost);
    for (const auto& [account, cost] : result.account_cost)
        run.account_cost(account, cost);
    SimMetrics m;
    m.jobs = result.jobs.size();
    m.cloud_cost = run.total_cloud_cost();
    m.account_cost = run.account_costs();
    m.lambda = lambda;
    m.interruptions = result.interruptions;
    m.budget_lines = budget_line_metrics(result);
    m.over_budget = result.over_budget;
    m.lost_core_seconds = result.lost_core_seconds;
    if (result.jobs.empty())
        return m;
    run.submitted(result.first_submit);
    std::vector<double> cloud_waits, interactive_waits, batch_waits;
    for (const auto& j : result.jobs) {
        const double wait = j.start - j.eligible;
        const double run_time = j.end - j.start;
        run.job_started(j.cpus, wait);
        run.job_ended(wait, run_time, j.end);
        if (j.group >= 0) {
            ++m.cloud_jobs;
            run.cloud_busy(double(j.cpus) * run_time);
            cloud_waits.push_back(wait);
        }
        (j.interactive ? interactive_waits : batch_waits).push_back(wait);
    }
    m.median_cloud_wait = nearest_rank(cloud_waits, 0.5);
    m.p95_cloud_wait = nearest_rank(cloud_waits, 0.95);
    m.interactive_jobs = interactive_waits.size();
    m.median_interactive_start = nearest_rank(interactive_waits, 0.5);
    m.p95_interactive_start = nearest_rank(interactive_waits, 0.95);
    m.mean_batch_wait = batch_waits.empty() ? 0 : std::accumulate(batch_waits.begin(), batch_waits.end(), 0.0) /
                                                       double(batch_waits.size());
    m.median_batch_wait = nearest_rank(batch_waits, 0.5);
    m.held_core_hours = result.held_core_seconds / 3600;
    m.warm_held_core_hours = result.warm_held_core_seconds / 3600;
    m.scavenger_done_core_hours = result.scavenger_done_core_seconds / 3600;
    m.scavenger_lost_core_hours = result.scavenger_lost_core_seconds / 3600;
    m.mean_wait = run.mean_wait();
    m.median_wait = run.wait_quantile(0.5);
    m.p95_wait = run.wait_quantile(0.95);
    m.mean_bounded_slowdown = run.mean_bounded_slowdown();
    m.makespan = run.makespan();
    m.waiting_core_hours = run.waiting_core_hours();
    m.cloud_core_seconds = run.cloud_busy_core_seconds();
    m.objective = run.objective(lambda);

    for (const auto& span : result.instances) {
        run.cloud_powered(double(span.cpus) * (span.down - span.launched));
        m.waste_boot_core_seconds += double(span.cpus) * (span.ready - span.launched);
    }
    m.waste_core_seconds = run.waste_core_seconds();
    m.waste_idle_core_seconds = result.idle_core_seconds;
    m.waste_idle_tail_core_seconds = result.idle_before_down_core_seconds;
    m.waste_partial_core_seconds = std::max(
        0.0, m.waste_core_seconds - m.waste_boot_core_seconds - m.waste_idle_core_seconds - m.lost_core_seconds);
    m.shortage_core_seconds = run.shortage_core_seconds();

    run.provisioning() = result.provisioning;
    m.a_under = run.provisioning().a_under();
    m.a_over = run.provisioning().a_over();
    m.t_under = run.provisioning().t_under();
    m.t_over = run.provisioning().t_over();

    if (budget > 0 && budget_interval > 0) {
        // What the provider bills: an instance costs from its launch to the
        // end of its last billed period, powered down or not (a node shut
        // down ten minutes into a billed hour is paid for all of it), and
        // that cost falls in the intervals its billed time spans, past the
        // makespan if need be.
        const auto billed_end = [](const InstanceSpan& span) { return std::max(span.down, span.billed_until); };
        double horizon = m.makespan;
        for (const auto& span : result.instances)
            horizon = std::max(horizon, billed_end(span) - result.first_submit);
        std::vector<double> spend(std::size_t(std::floor(horizon / budget_interval)) + 1, 0.0);
        for (const auto& span : result.instances) {
            const double rate = span.price_per_hour / 3600;
            const double from = std::max(0.0, span.launched - result.first_submit);
            const double to = std::max(from, billed_end(span) - result.first_submit);
            const std::size_t first = std::min(spend.size() - 1, std::size_t(from / budget_interval));
            for (std::size_t k = first; k < spend.size(); ++k) {
                const double lo = std::max(from, double(k) * budget_interval);
                const double hi = std::min(to, double(k + 1) * budget_interval);
                if (hi <= lo)
                    break;
                spend[k] += rate * (hi - lo);
            }
        }
        for (std::size_t k = 0; k < spend.size(); ++k)
            run.budget_spend("", double(k) * budget_interval, spend[k], budget);
        m.budget_intervals = run.budget_intervals();
        m.budget_violations = run.budget_violations();
        m.max_interval_spend = run.max_interval_spend();
    }
    return m;
}

} // namespace burst

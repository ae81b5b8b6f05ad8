#include "model/run_metrics.hpp"

#include <algorithm>
#include <cmath>

namespace burst {

namespace {

std::size_t nearest_rank(std::uint64_t n, double q)
{
    const auto rank = std::uint64_t(std::ceil(q * double(n)));
    return std::size_t(std::min(n, std::max<std::uint64_t>(rank, 1)));
}

} // namespace

const std::array<double, WaitHistogram::kFiniteBuckets>& WaitHistogram::bounds()
{
    static const std::array<double, kFiniteBuckets> b = [] {
        std::array<double, kFiniteBuckets> out{};
        out[0] = 0;
        for (std::size_t k = 1; k < kFiniteBuckets; ++k)
            out[k] = std::ldexp(k % 2 ? 1.0 : std::sqrt(2.0), int((k - 1) / 2));
        return out;
    }();
    return b;
}

void WaitHistogram::add(Seconds wait)
{
    wait = std::max<Seconds>(0, wait);
    const auto& b = bounds();
    const std::size_t i = std::size_t(std::lower_bound(b.begin(), b.end(), wait) - b.begin());
    ++counts_[i];
    min_ = count_ == 0 ? wait : std::min(min_, wait);
    max_ = count_ == 0 ? wait : std::max(max_, wait);
    ++count_;
}

double WaitHistogram::quantile(double q) const
{
    if (count_ == 0)
        return 0;
    const std::uint64_t rank = nearest_rank(count_, q);
    std::uint64_t below = 0;
    std::size_t i = 0;
    while (below + counts_[i] < rank)
        below += counts_[i++];
    if (i == 0)
        return 0;
    if (i == kFiniteBuckets)
        return max_;
    return std::clamp(bounds()[i] / std::pow(2.0, 0.25), min_, max_);
}

void ProvisioningSamples::add(double demand, double supply)
{
    if (demand > capacity) {
        ++beyond_capacity;
        return;
    }
    ++samples;
    if (demand > supply) {
        ++under_samples;
        under_cores += demand - supply;
    } else if (supply > demand) {
        ++over_samples;
        over_cores += supply - demand;
    }
}

RunMetrics::RunMetrics(double tau, bool keep_waits) : tau_(tau), keep_waits_(keep_waits) {}

void RunMetrics::submitted(Time submit)
{
    first_submit_ = any_submit_ ? std::min(first_submit_, submit) : submit;
    any_submit_ = true;
}

void RunMetrics::job_started(std::uint32_t cpus, Seconds wait)
{
    ++started_;
    wait_sum_ += wait;
    waiting_core_hours_ += double(cpus) * wait / 3600;
    histogram_.add(wait);
    if (keep_waits_)
        all_waits_.push_back(wait);
}

void RunMetrics::job_ended(Seconds wait, Seconds run, Time end)
{
    ++ended_;
    bsld_sum_ += std::max(1.0, (wait + run) / std::max(run, tau_));
    last_end_ = any_end_ ? std::max(last_end_, end) : end;
    any_end_ = true;
}

void RunMetrics::cloud_powered(double core_seconds) { cloud_powered_ += core_seconds; }

void RunMetrics::cloud_busy(double core_seconds) { cloud_busy_ += core_seconds; }

void RunMetrics::cloud_cost(double amount) { cloud_cost_ += amount; }

void RunMetrics::account_cost(const std::string& account, double amount) { account_cost_[account] += amount; }

void RunMetrics::budget_spend(const std::string& key, Time interval_start, double spent, double budget)
{
    auto [it, fresh] = budgets_.try_emplace(key);
    if (fresh || it->second.start != interval_start) {
        it->second = BudgetInterval{interval_start, false};
        ++budget_intervals_;
    }
    // Sums of many pro-rata slices: a relative epsilon keeps a spend that
    // equals the budget from counting as a violation.
    if (!it->second.violated && spent > budget * (1 + 1e-9)) {
        it->second.violated = true;
        ++budget_violations_;
    }
    max_interval_spend_ = std::max(max_interval_spend_, spent);
}

double RunMetrics::wait_quantile(double q) const
{
    if (!keep_waits_)
        return histogram_.quantile(q);
    if (all_waits_.empty())
        return 0;
    std::vector<double> sorted = all_waits_;
    std::sort(sorted.begin(), sorted.end());
    return sorted[nearest_rank(sorted.size(), q) - 1];
}

double RunMetrics::makespan() const
{
    if (!any_submit_ || !any_end_)
        return 0;
    return std::max(last_end_, first_submit_) - first_submit_;
}

double RunMetrics::waste_core_seconds() const { return std::max(0.0, cloud_powered_ - cloud_busy_); }

std::map<std::string, double> RunMetrics::account_costs() const
{
    std::map<std::string, double> out = account_cost_;
    double attributed = 0;
    for (const auto& [account, cost] : account_cost_)
        attributed += cost;
    out[""] = std::max(0.0, cloud_cost_ - attributed);
    return out;
}

} // namespace burst

#include "policy/hiring/pfa/throughput_profile.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace burst {
namespace {

double sum(const std::vector<double>& v)
{
    return std::accumulate(v.begin(), v.end(), 0.0);
}

} // namespace

ThroughputProfile::ThroughputProfile(std::size_t groups, Smoothing smoothing, std::uint32_t depth, double alpha)
    : groups_(groups), smoothing_(smoothing), depth_(depth), alpha_(alpha),
      rho_(groups, groups ? 1.0 / double(groups) : 0.0)
{
}

void ThroughputProfile::record(const std::vector<double>& tau)
{
    tau_history_.push_back(tau);
    while (tau_history_.size() > std::size_t(depth_) + 1)
        tau_history_.pop_front();
    if (smoothing_ == Smoothing::MovingAverage)
        smooth_ma();
    else
        smooth_ewma(tau);
}

void ThroughputProfile::smooth_ma()
{
    // Eqs. 6-8: average the instant ratios of the intervals that had any
    // throughput.  Eqs. 13-14: ζ is the mean of every τ of those intervals.
    std::vector<double> mean(groups_, 0.0);
    std::size_t used = 0;
    double tau_sum = 0;
    for (const auto& tau : tau_history_) {
        const double total = sum(tau);
        if (total <= 0)
            continue;
        for (std::size_t i = 0; i < groups_; ++i)
            mean[i] += tau[i] / total;
        tau_sum += total;
        ++used;
    }
    const bool every_group = used > 0 && std::all_of(mean.begin(), mean.end(), [](double m) { return m > 0; });
    for (std::size_t i = 0; i < groups_; ++i)
        rho_[i] = every_group ? mean[i] / double(used) : 1.0 / double(groups_);
    mean_tau_ = used > 0 ? tau_sum / double(used * groups_) : 0;
    zeta_ = mean_tau_ > 0 ? std::ceil(mean_tau_) : kUnbounded;
}

void ThroughputProfile::smooth_ewma(const std::vector<double>& tau)
{
    const double total = sum(tau);
    // Eq. 9: smooth only while every group shows throughput.
    if (total > 0 && std::all_of(tau.begin(), tau.end(), [](double t) { return t > 0; }))
        for (std::size_t i = 0; i < groups_; ++i)
            rho_[i] = alpha_ * rho_[i] + (1 - alpha_) * tau[i] / total;
    else
        std::fill(rho_.begin(), rho_.end(), 1.0 / double(groups_));
    // Eqs. 16-17; the first interval with throughput starts the average.
    mean_tau_ = total / double(groups_);
    if (total > 0)
        zeta_ = std::ceil(zeta_ == kUnbounded ? mean_tau_ : alpha_ * zeta_ + (1 - alpha_) * mean_tau_);
    else
        zeta_ = kUnbounded;
}

double ThroughputProfile::demand(double theta, double lambda) const
{
    if (mean_tau_ <= 0)
        return lambda;
    return std::min(theta, std::ceil(theta / mean_tau_));
}

} // namespace burst

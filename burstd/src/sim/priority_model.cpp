#include "sim/priority_model.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <stdexcept>

namespace burst {

MultifactorPriority::MultifactorPriority(const PriorityConfig& config, const std::vector<std::string>& accounts,
                                         std::uint64_t site_cores, std::uint32_t site_nodes)
    : config_(config), site_cores_(std::max<std::uint64_t>(site_cores, 1)),
      site_nodes_(std::max<std::uint32_t>(site_nodes, 1))
{
    if (config_.decay_half_life > 0)
        decay_ = 1 - 0.693 / config_.decay_half_life; // Slurm's own approximation of 2^(−1/half-life)
    names_ = accounts;
    for (const auto& [name, shares] : config_.shares)
        names_.push_back(name);
    std::sort(names_.begin(), names_.end());
    names_.erase(std::unique(names_.begin(), names_.end()), names_.end());
    double level_shares = 0;
    for (const auto& name : names_) {
        auto it = config_.shares.find(name);
        raw_shares_.push_back(it == config_.shares.end() ? 1.0 : double(it->second));
        level_shares += raw_shares_.back();
    }
    for (double s : raw_shares_)
        norm_shares_.push_back(level_shares > 0 ? s / level_shares : 0);
    raw_.assign(names_.size(), 0);
    norm_.assign(names_.size(), 0);
    factor_.assign(names_.size(), 0);
    for (std::size_t a = 0; a < names_.size(); ++a)
        factor_[a] = norm_shares_[a] > 0 ? 1 : 0; // no usage anywhere yet: 2^0
}

std::uint32_t MultifactorPriority::account(const std::string& name) const
{
    auto it = std::lower_bound(names_.begin(), names_.end(), name);
    if (it == names_.end() || *it != name)
        throw std::out_of_range("account '" + name + "' has no association");
    return std::uint32_t(it - names_.begin());
}

void MultifactorPriority::begin_pass(Time now)
{
    double root = 0;
    for (double r : raw_)
        root += r;
    for (std::size_t a = 0; a < names_.size(); ++a) {
        norm_[a] = root > 0 ? std::min(1.0, raw_[a] / root) : 0;
        factor_[a] = norm_shares_[a] > 0 ? std::pow(2.0, -((norm_[a] / norm_shares_[a]) / config_.dampening)) : 0;
    }
    charge_pass_ = passed_;
    pass_from_ = last_pass_;
    whole_period_decay_ = passed_ ? std::pow(decay_, now - last_pass_) : 1;
    if (passed_ && now > last_pass_) {
        const double real_decay = std::max(std::pow(decay_, now - last_pass_), DBL_MIN);
        for (double& r : raw_)
            r *= real_decay;
    }
    passed_ = true;
    last_pass_ = now;
    usage_since_pass_ = false;
}

double MultifactorPriority::charge(std::uint32_t cpus, Time from, Time to) const
{
    const double delta = to - from;
    if (!(delta > 0))
        return 0;
    return double(cpus) * delta * std::pow(decay_, delta);
}

void MultifactorPriority::charge_running(std::uint32_t account, std::uint32_t cpus, Time start)
{
    if (!charge_pass_)
        return;
    if (start <= pass_from_) // most running jobs ran the whole period: d^Δ is known
        raw_[account] += double(cpus) * (last_pass_ - pass_from_) * whole_period_decay_;
    else
        raw_[account] += charge(cpus, start, last_pass_);
}

void MultifactorPriority::charge_ended(std::uint32_t account, std::uint32_t cpus, Time start, Time end)
{
    raw_[account] += charge(cpus, passed_ ? std::max(start, last_pass_) : start, end);
    usage_since_pass_ = true;
}

std::uint32_t MultifactorPriority::priority(Time now, Time eligible, std::uint32_t account, std::uint32_t cpus) const
{
    double age = 0;
    if (config_.weight_age) {
        const double waited = std::max(0.0, now - eligible);
        age = waited < config_.max_age ? waited / config_.max_age : 1.0;
    }
    const double fs = config_.weight_fairshare ? factor_[account] : 0;
    double size = 0;
    if (config_.weight_jobsize) {
        const double nodes = site_nodes_, cores = double(site_cores_);
        size = config_.favor_small ? ((nodes - 1) / nodes + (cores - cpus) / cores) / 2
                                   : (1 / nodes + cpus / cores) / 2;
        size = std::clamp(size, 0.0, 1.0);
    }
    double p = age * config_.weight_age + fs * config_.weight_fairshare + size * config_.weight_jobsize;
    if (p < 1) // 0 is for held jobs
        p = 1;
    return p >= 4294967295.0 ? 4294967295u : std::uint32_t(p);
}

void MultifactorPriority::fill_shares(std::vector<Share>& out) const
{
    if (out.size() != names_.size()) {
        out.assign(names_.size(), Share{});
        for (std::size_t a = 0; a < names_.size(); ++a) {
            out[a].account = names_[a];
            out[a].parent = "root";
            out[a].raw_shares = raw_shares_[a];
            out[a].norm_shares = norm_shares_[a];
        }
    }
    for (std::size_t a = 0; a < names_.size(); ++a) {
        out[a].raw_usage = raw_[a];
        out[a].norm_usage = norm_[a];
        out[a].fairshare_factor = factor_[a];
    }
}

} // namespace burst

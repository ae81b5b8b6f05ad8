#include "sim/priority/priority_model.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace burst {

std::string shares_needing_fair_tree(const PriorityConfig& config)
{
    if (config.fair_tree)
        return "";
    if (!config.shares.users.empty())
        return "ACCOUNT/USER entries need Fair Tree (PriorityFlags=NO_FAIR_TREE models every user at "
               "Fairshare=parent)";
    for (const auto& [account, shares] : config.shares.accounts)
        if (shares == kFairshareParent)
            return account + "=parent needs Fair Tree (PriorityFlags=NO_FAIR_TREE models every account under root)";
    return "";
}

MultifactorPriority::MultifactorPriority(const PriorityConfig& config,
                                         const std::vector<std::pair<std::string, std::string>>& users,
                                         std::uint64_t site_cores, std::uint32_t site_nodes)
    : config_(config), site_cores_(std::max<std::uint64_t>(site_cores, 1)),
      site_nodes_(std::max<std::uint32_t>(site_nodes, 1))
{
    if (config_.decay_half_life > 0)
        decay_ = 1 - 0.693 / config_.decay_half_life; // Slurm's own approximation of 2^(−1/half-life)
    if (const std::string problem = shares_needing_fair_tree(config_); !problem.empty())
        throw std::invalid_argument(problem);
    users_ = users;
    for (const auto& [user, shares] : config_.shares.users)
        users_.push_back(user);
    std::sort(users_.begin(), users_.end());
    users_.erase(std::unique(users_.begin(), users_.end()), users_.end());
    for (const auto& [account, user] : users_)
        accounts_.push_back(account);
    for (const auto& [name, shares] : config_.shares.accounts)
        accounts_.push_back(name);
    std::sort(accounts_.begin(), accounts_.end());
    accounts_.erase(std::unique(accounts_.begin(), accounts_.end()), accounts_.end());

    // Siblings in name order: the order Fair Tree keeps among equal LF.
    for (const auto& name : accounts_) {
        auto it = config_.shares.accounts.find(name);
        const std::uint32_t shares = it == config_.shares.accounts.end() ? 1 : it->second;
        account_raw_shares_.push_back(shares);
        account_node_.push_back(tree_.add_account(FairTree::kRoot, shares));
    }
    for (const auto& key : users_) {
        const auto a = std::uint32_t(std::lower_bound(accounts_.begin(), accounts_.end(), key.first) - accounts_.begin());
        auto it = config_.shares.users.find(key);
        user_account_.push_back(a);
        user_raw_shares_.push_back(it == config_.shares.users.end() ? 1 : it->second);
        user_node_.push_back(tree_.add_user(account_node_[a], user_raw_shares_.back()));
    }
    tree_.normalize(); // classic reads the accounts' S too
    raw_.assign(tree_.size(), 0);
    norm_.assign(tree_.size(), 0);
    account_factor_.assign(accounts_.size(), 0);
    factor_.assign(users_.size(), 0);
    if (config_.fair_tree) {
        end_charges(); // no usage anywhere: every user ties at LF = ∞, F = 1
    } else {
        for (std::size_t a = 0; a < accounts_.size(); ++a)
            account_factor_[a] = tree_.norm_shares(account_node_[a]) > 0 ? 1 : 0; // 2^0
        for (std::size_t u = 0; u < users_.size(); ++u)
            factor_[u] = account_factor_[user_account_[u]];
    }
}

std::uint32_t MultifactorPriority::association(const std::string& account, const std::string& user) const
{
    const std::pair<std::string, std::string> key(account, user);
    auto it = std::lower_bound(users_.begin(), users_.end(), key);
    if (it == users_.end() || *it != key)
        throw std::out_of_range("user '" + user + "' has no association with account '" + account + "'");
    return std::uint32_t(it - users_.begin());
}

double MultifactorPriority::account_usage(std::uint32_t association) const
{
    return raw_[account_node_[account_of(association)]];
}

long double MultifactorPriority::level_fs(std::uint32_t association) const
{
    return config_.fair_tree ? tree_.level_fs(user_node_[association]) : 0;
}

long double MultifactorPriority::account_level_fs(std::uint32_t association) const
{
    return config_.fair_tree ? tree_.level_fs(account_node_[account_of(association)]) : 0;
}

void MultifactorPriority::classic_factors()
{
    double root = 0;
    for (std::uint32_t node : account_node_)
        root += raw_[node];
    for (std::size_t a = 0; a < accounts_.size(); ++a) {
        const std::uint32_t node = account_node_[a];
        norm_[node] = root > 0 ? std::min(1.0, raw_[node] / root) : 0;
        account_factor_[a] = tree_.norm_shares(account_node_[a]) > 0
                                 ? std::pow(2.0, -((norm_[node] / tree_.norm_shares(account_node_[a])) / config_.dampening))
                                 : 0;
    }
    for (std::size_t u = 0; u < users_.size(); ++u)
        factor_[u] = account_factor_[user_account_[u]];
}

void MultifactorPriority::begin_pass(Time now)
{
    if (!config_.fair_tree)
        classic_factors();
    // Fair Tree charges running jobs on the first pass too, from their start
    // (_apply_new_usage from g_last_ran = 0); classic skips that pass.
    charge_pass_ = passed_ || config_.fair_tree;
    pass_from_ = passed_ ? last_pass_ : -std::numeric_limits<Time>::infinity();
    whole_period_decay_ = passed_ ? std::pow(decay_, now - last_pass_) : 1;
    if (passed_ && now > last_pass_) {
        const double real_decay = std::max(std::pow(decay_, now - last_pass_), DBL_MIN);
        for (double& r : raw_)
            r *= real_decay;
    }
    passed_ = true;
    last_pass_ = now;
    usage_since_pass_ = false;
    ++changes_;
}

void MultifactorPriority::end_charges()
{
    if (!config_.fair_tree)
        return;
    tree_.rank(raw_);
    const double root = raw_[FairTree::kRoot];
    for (std::size_t n = 0; n < raw_.size(); ++n) // set_assoc_usage_norm, for the snapshot
        norm_[n] = root > 0 ? std::min(1.0, raw_[n] / root) : 0;
    for (std::size_t u = 0; u < users_.size(); ++u)
        factor_[u] = tree_.fairshare_factor(user_node_[u]);
    ++changes_;
}

double MultifactorPriority::charge(std::uint32_t cpus, Time from, Time to) const
{
    const double delta = to - from;
    if (!(delta > 0))
        return 0;
    return double(cpus) * delta * std::pow(decay_, delta);
}

// Slurm adds a job's usage to its association and every one above it.
void MultifactorPriority::add_usage(std::uint32_t association, double amount)
{
    raw_[user_node_[association]] += amount;
    raw_[account_node_[account_of(association)]] += amount;
    raw_[FairTree::kRoot] += amount;
    ++changes_;
}

void MultifactorPriority::charge_running(std::uint32_t association, std::uint32_t cpus, Time start)
{
    if (!charge_pass_)
        return;
    if (start <= pass_from_) // most running jobs ran the whole period: d^Δ is known
        add_usage(association, double(cpus) * (last_pass_ - pass_from_) * whole_period_decay_);
    else
        add_usage(association, charge(cpus, start, last_pass_));
}

void MultifactorPriority::charge_ended(std::uint32_t association, std::uint32_t cpus, Time start, Time end)
{
    add_usage(association, charge(cpus, passed_ ? std::max(start, last_pass_) : start, end));
    usage_since_pass_ = true;
}

std::uint32_t MultifactorPriority::priority(Time now, Time eligible, std::uint32_t association,
                                            std::uint32_t cpus) const
{
    double age = 0;
    if (config_.weight_age) {
        const double waited = std::max(0.0, now - eligible);
        age = waited < config_.max_age ? waited / config_.max_age : 1.0;
    }
    const double fs = config_.weight_fairshare ? factor_[association] : 0;
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

void MultifactorPriority::fill_shares(std::vector<Share>& out)
{
    const std::size_t rows = config_.fair_tree ? accounts_.size() + users_.size() : accounts_.size();
    if (out.size() == rows && filled_changes_ == changes_)
        return;
    filled_changes_ = changes_;
    if (out.size() != rows) {
        out.assign(rows, Share{});
        std::size_t row = 0, u = 0;
        for (std::size_t a = 0; a < accounts_.size(); ++a) {
            Share& s = out[row++];
            s.account = accounts_[a];
            s.parent = "root";
            s.fairshare_parent = account_raw_shares_[a] == kFairshareParent;
            s.raw_shares = s.fairshare_parent ? 0 : account_raw_shares_[a]; // as the exporter
            s.norm_shares = tree_.norm_shares(account_node_[a]);
            for (; config_.fair_tree && u < users_.size() && user_account_[u] == a; ++u) {
                Share& us = out[row++];
                const std::uint32_t node = user_node_[u];
                us.account = accounts_[a];
                us.user = users_[u].second;
                us.parent = accounts_[a];
                us.norm_shares = tree_.norm_shares(node);
                us.fairshare_parent = user_raw_shares_[u] == kFairshareParent;
                us.raw_shares = us.fairshare_parent ? 0 : user_raw_shares_[u]; // as the exporter
            }
        }
    }
    std::size_t row = 0, u = 0;
    for (std::size_t a = 0; a < accounts_.size(); ++a) {
        Share& s = out[row++];
        const std::uint32_t node = account_node_[a];
        s.raw_usage = raw_[node];
        s.norm_usage = norm_[node];
        s.fairshare_factor = config_.fair_tree ? 0 : account_factor_[a];
        for (; config_.fair_tree && u < users_.size() && user_account_[u] == a; ++u) {
            Share& us = out[row++];
            us.raw_usage = raw_[user_node_[u]];
            us.norm_usage = norm_[user_node_[u]];
            us.fairshare_factor = factor_[u];
        }
    }
}

} // namespace burst

#include "policy/budget_split.hpp"

namespace burst {

std::map<std::string, double> split_budget(double budget, const std::vector<std::string>& accounts,
                                           const std::vector<Share>& shares, BudgetSplit how)
{
    std::map<std::string, double> weight;
    for (const auto& a : accounts)
        weight[a] = 0;
    // Fair Tree (Slurm's default) ranks users and leaves every account's
    // factor at 0: an account then weighs in with its users' mean factor.
    std::map<std::string, std::pair<double, std::size_t>> users; // sum, count
    if (how == BudgetSplit::FairShare)
        for (const auto& s : shares)
            if (!s.user.empty() && weight.count(s.account)) {
                auto& [sum, count] = users[s.account];
                sum += s.fairshare_factor;
                ++count;
            }
    double total = 0;
    if (how != BudgetSplit::Equal) {
        for (const auto& s : shares) {
            auto it = weight.find(s.account);
            if (!s.user.empty() || it == weight.end())
                continue;
            double factor = s.fairshare_factor;
            if (auto u = users.find(s.account); factor == 0 && u != users.end())
                factor = u->second.first / double(u->second.second);
            it->second = how == BudgetSplit::FairShare ? s.norm_shares * factor : s.norm_shares;
            total += it->second;
        }
    }
    if (total <= 0) {
        if (how == BudgetSplit::FairShare)
            return split_budget(budget, accounts, shares, BudgetSplit::Shares);
        for (auto& [a, w] : weight)
            w = 1;
        total = double(weight.size());
    }
    std::map<std::string, double> out;
    for (const auto& [a, w] : weight)
        out[a] = total > 0 ? budget * w / total : 0;
    return out;
}

} // namespace burst

#include "policy/budget/budget_split.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_map>

namespace burst {

namespace {

// The account associations as a tree, and what each account's own jobs may
// claim of the machine.  Built in time linear in the associations: a site
// may have tens of thousands, and pfa splits at every decision.
class ShareTree {
public:
    // `shares` must outlive the tree (it keeps views of the names).
    explicit ShareTree(const std::vector<Share>& shares)
    {
        for (const auto& s : shares)
            if (s.user.empty() && index_.emplace(s.account, std::uint32_t(nodes_.size())).second) {
                nodes_.emplace_back();
                nodes_.back().share = &s;
            }
        for (const auto& s : shares)
            if (!s.user.empty() && !s.fairshare_parent)
                if (auto a = index_.find(s.account); a != index_.end())
                    nodes_[a->second].users_shares += s.raw_shares;
        link();
        // What each subtree puts into the level it joins: its raw shares, or
        // at Fairshare=parent its children's (Slurm's level_shares).
        for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
            Node& n = nodes_[*it];
            n.level = n.users_shares;
            for (std::uint32_t c : n.children)
                n.level += nodes_[c].into_level();
        }
        double top_level = 0;
        for (std::uint32_t t : tops_)
            top_level += nodes_[t].into_level();
        for (std::uint32_t i : order_) {
            Node& n = nodes_[i];
            if (n.fs_parent == kNone)
                n.machine = top_level > 0 ? n.into_level() / top_level : 1.0 / double(tops_.size());
            else if (const Node& f = nodes_[n.fs_parent]; f.level > 0)
                n.machine = f.machine * n.into_level() / f.level;
            // A top at Fairshare=parent has no ancestor to hand its children
            // to: they stay in its own level.
            for (std::uint32_t c : n.children)
                nodes_[c].fs_parent = n.share->fairshare_parent && n.fs_parent != kNone ? n.fs_parent : i;
        }
    }

    // What each of `accounts` that has an association may claim for its own
    // jobs: its subtree's machine share less that of the nearest
    // descendants among `accounts`, which claim theirs.
    std::map<std::string, double> own_shares(const std::map<std::string, double>& accounts) const
    {
        std::vector<char> claims(nodes_.size(), 0);
        for (const auto& entry : accounts)
            if (auto a = index_.find(entry.first); a != index_.end())
                claims[a->second] = 1;
        // Parents first, so each account's nearest claiming ancestor is known
        // from its parent's.
        std::vector<std::uint32_t> claimant_above(nodes_.size(), kNone);
        std::vector<double> own(nodes_.size(), 0);
        for (std::uint32_t i : order_) {
            own[i] = nodes_[i].machine;
            for (std::uint32_t c : nodes_[i].children)
                claimant_above[c] = claims[i] ? i : claimant_above[i];
            if (claims[i] && claimant_above[i] != kNone)
                own[claimant_above[i]] -= nodes_[i].machine;
        }
        std::map<std::string, double> out;
        for (const auto& entry : accounts)
            if (auto a = index_.find(entry.first); a != index_.end())
                out[entry.first] = std::max(0.0, own[a->second]);
        return out;
    }

private:
    static constexpr std::uint32_t kNone = UINT32_MAX;

    struct Node {
        const Share* share = nullptr;
        double users_shares = 0; // of its users not at Fairshare=parent
        std::vector<std::uint32_t> children;
        double level = 0;              // raw shares of the level its children form
        std::uint32_t fs_parent = kNone; // whose level it joins; kNone for a top
        double machine = 0;            // its subtree's share of the machine

        double into_level() const { return share->fairshare_parent ? level : share->raw_shares; }
    };

    // Children under parents and the tops, then order_: parents before
    // children, from the tops.  The top is root (the association without a
    // parent); without one, every account whose parent has no association.
    // An account off the tree (under a missing parent beside root, or on a
    // parent cycle) is reached from no top and holds nothing, as in Slurm.
    void link()
    {
        bool has_root = false;
        for (const Node& n : nodes_)
            has_root = has_root || n.share->parent.empty();
        for (std::uint32_t i = 0; i < nodes_.size(); ++i) {
            const std::string& parent = nodes_[i].share->parent;
            auto p = index_.find(parent);
            if (p != index_.end() && p->second != i)
                nodes_[p->second].children.push_back(i);
            else if (parent.empty() || (!has_root && p == index_.end()))
                tops_.push_back(i);
        }
        order_ = tops_;
        for (std::size_t k = 0; k < order_.size(); ++k)
            order_.insert(order_.end(), nodes_[order_[k]].children.begin(), nodes_[order_[k]].children.end());
    }

    std::unordered_map<std::string_view, std::uint32_t> index_;
    std::vector<Node> nodes_; // in the snapshot's order: the same sums every run
    std::vector<std::uint32_t> tops_;
    std::vector<std::uint32_t> order_;
};

std::map<std::string, double> proportional(double budget, const std::map<std::string, double>& weight)
{
    double total = 0;
    for (const auto& [a, w] : weight)
        total += w;
    std::map<std::string, double> out;
    for (const auto& [a, w] : weight)
        out[a] = total > 0 ? budget * w / total : 0;
    return out;
}

bool any_positive(const std::map<std::string, double>& weight)
{
    return std::any_of(weight.begin(), weight.end(), [](const auto& w) { return w.second > 0; });
}

} // namespace

std::map<std::string, double> split_budget(double budget, const std::vector<std::string>& accounts,
                                           const std::vector<Share>& shares, BudgetSplit how)
{
    std::map<std::string, double> equal;
    for (const auto& a : accounts)
        equal[a] = 1;
    if (how == BudgetSplit::Equal)
        return proportional(budget, equal);
    std::map<std::string, double> machine;
    for (const auto& a : accounts)
        machine[a] = 0;
    for (const auto& [account, own] : ShareTree(shares).own_shares(machine))
        machine[account] = own;
    if (how == BudgetSplit::FairShare) {
        // Fair Tree (Slurm's default) ranks users and leaves every account's
        // factor at 0: an account then weighs in with its users' mean factor.
        struct Factors {
            double account = 0;
            bool account_seen = false;
            double users_sum = 0;
            std::size_t users = 0;
        };
        std::unordered_map<std::string_view, Factors> factors; // of the accounts to split among
        for (const auto& [account, m] : machine)
            factors.emplace(account, Factors{});
        for (const auto& s : shares) {
            auto f = factors.find(s.account);
            if (f == factors.end())
                continue;
            if (!s.user.empty()) {
                f->second.users_sum += s.fairshare_factor;
                ++f->second.users;
            } else if (!f->second.account_seen) {
                f->second.account = s.fairshare_factor;
                f->second.account_seen = true;
            }
        }
        std::map<std::string, double> weight;
        for (const auto& [account, m] : machine) {
            const Factors& f = factors.at(account);
            const double factor = f.account == 0 && f.users ? f.users_sum / double(f.users) : f.account;
            weight[account] = m * factor;
        }
        if (any_positive(weight))
            return proportional(budget, weight);
    }
    return proportional(budget, any_positive(machine) ? machine : equal);
}

} // namespace burst

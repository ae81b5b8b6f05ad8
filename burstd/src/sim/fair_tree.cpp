#include "sim/fair_tree.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace burst {

FairTree::FairTree()
{
    nodes_.emplace_back(); // root: no shares of its own, no siblings
    nodes_[kRoot].norm_shares = 1;
}

std::uint32_t FairTree::add(std::uint32_t parent, bool user, std::uint32_t shares)
{
    if (parent >= nodes_.size() || nodes_[parent].user)
        throw std::invalid_argument("fair tree: the parent of an association must be an account");
    const auto index = std::uint32_t(nodes_.size());
    Node n;
    n.parent = parent;
    n.user = user;
    n.shares = shares;
    nodes_.push_back(n);
    nodes_[parent].children.push_back(index);
    nodes_[parent].order.push_back(index);
    normalized_ = false;
    if (user)
        ++users_;
    return index;
}

std::uint32_t FairTree::add_account(std::uint32_t parent, std::uint32_t shares)
{
    if (shares == kFairshareParent) // would hand its children to its own parent's level
        throw std::invalid_argument("fair tree: an account at Fairshare=parent is not modelled");
    return add(parent, false, shares);
}

std::uint32_t FairTree::add_user(std::uint32_t account, std::uint32_t shares)
{
    return add(account, true, shares);
}

// _set_children_level_shares + _normalize_assoc_shares_fair_tree: a
// Fairshare=parent user adds nothing to the level and takes its account's S.
void FairTree::normalize_level(std::uint32_t parent)
{
    double level = 0;
    for (std::uint32_t c : nodes_[parent].children)
        if (nodes_[c].shares != kFairshareParent)
            level += nodes_[c].shares;
    for (std::uint32_t c : nodes_[parent].children) {
        Node& n = nodes_[c];
        n.norm_shares = n.shares == kFairshareParent ? nodes_[parent].norm_shares
                        : level > 0                  ? n.shares / level
                                                     : 0;
        if (!n.user)
            normalize_level(c); // its users may be at Fairshare=parent
    }
}

void FairTree::normalize()
{
    if (!normalized_) {
        normalize_level(kRoot);
        normalized_ = true;
    }
}

void FairTree::rank(const std::vector<double>& usage)
{
    if (usage.size() != nodes_.size())
        throw std::invalid_argument("fair tree: one usage value per association expected");
    normalize();
    rank_ = unranked_ = users_;
    rank_level(kRoot, false, usage);
}

void FairTree::rank_level(std::uint32_t parent, bool account_tied, const std::vector<double>& usage)
{
    const long double parent_usage = usage[parent];
    for (std::uint32_t c : nodes_[parent].children) {
        Node& n = nodes_[c];
        n.effective_usage = parent_usage > 0 ? usage[c] / parent_usage : 0;
        const long double s = n.norm_shares;
        if (n.shares == kFairshareParent)
            n.level_fs = INFINITY; // first in its account, tied with its likes
        else if (s == 0)
            n.level_fs = 0;
        else
            n.level_fs = s / n.effective_usage; // U = 0 < S: ∞, the highest
    }
    // Equal LF and kind keep the order added (indexes grow with it): a total
    // order, so last pass's order, kept, is a nearly sorted start.
    std::vector<std::uint32_t>& order = nodes_[parent].order;
    const auto before = [this](std::uint32_t a, std::uint32_t b) {
        if (nodes_[a].level_fs != nodes_[b].level_fs)
            return nodes_[a].level_fs > nodes_[b].level_fs;
        if (nodes_[a].user != nodes_[b].user)
            return nodes_[a].user;
        return a < b;
    };
    if (!std::is_sorted(order.begin(), order.end(), before))
        std::sort(order.begin(), order.end(), before);
    for (std::size_t i = 0; i < order.size(); ++i) {
        Node& n = nodes_[order[i]];
        const bool tied = i == 0 ? account_tied : nodes_[order[i - 1]].level_fs == n.level_fs;
        if (n.user) {
            if (!tied)
                rank_ = unranked_;
            n.factor = double(rank_) / users_;
            --unranked_;
        } else {
            rank_level(order[i], tied, usage);
        }
    }
}

} // namespace burst

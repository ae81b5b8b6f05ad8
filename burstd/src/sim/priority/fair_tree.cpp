#include "sim/priority/fair_tree.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace burst {

FairTree::FairTree()
{
    nodes_.emplace_back(); // root: in no level, so S = 0 (level_shares 0)
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
    normalized_ = false;
    if (user)
        ++users_;
    return index;
}

std::uint32_t FairTree::add_account(std::uint32_t parent, std::uint32_t shares)
{
    return add(parent, false, shares);
}

std::uint32_t FairTree::add_user(std::uint32_t account, std::uint32_t shares)
{
    return add(account, true, shares);
}

// Slurm appends each association of its list to its fair-share parent's
// children_list (fs_assoc_ptr, _set_assoc_parent_and_user: the nearest
// ancestor not at Fairshare=parent), so a level keeps the list's order
// (depth first once re-sorted; fair_tree.hpp).
void FairTree::build_level(std::uint32_t parent, std::uint32_t fs_parent)
{
    for (std::uint32_t c : nodes_[parent].children) {
        Node& n = nodes_[c];
        n.position = std::uint32_t(nodes_[fs_parent].level.size());
        nodes_[fs_parent].level.push_back(c);
        if (!n.user)
            build_level(c, at_parent(c) ? fs_parent : c);
    }
}

// _get_children_level_shares + _normalize_assoc_shares_fair_tree: an
// association at Fairshare=parent adds nothing to the level (an account's
// own level being empty) and takes S of its fair-share parent.
void FairTree::normalize_level(std::uint32_t fs_parent)
{
    double level = 0;
    for (std::uint32_t c : nodes_[fs_parent].level)
        if (!at_parent(c))
            level += nodes_[c].shares;
    for (std::uint32_t c : nodes_[fs_parent].level) {
        Node& n = nodes_[c];
        n.norm_shares = at_parent(c) ? nodes_[fs_parent].norm_shares : level > 0 ? n.shares / level : 0;
    }
    for (std::uint32_t c : nodes_[fs_parent].level)
        if (!nodes_[c].user)
            normalize_level(c);
}

void FairTree::normalize()
{
    if (normalized_)
        return;
    for (Node& n : nodes_)
        n.level.clear();
    build_level(kRoot, kRoot);
    for (Node& n : nodes_)
        n.order = n.level;
    normalize_level(kRoot);
    normalized_ = true;
}

void FairTree::rank(const std::vector<double>& usage)
{
    if (usage.size() != nodes_.size())
        throw std::invalid_argument("fair tree: one usage value per association expected");
    normalize();
    rank_ = unranked_ = users_;
    rank_level(kRoot, false, usage);
}

void FairTree::rank_level(std::uint32_t fs_parent, bool account_tied, const std::vector<double>& usage)
{
    const long double parent_usage = usage[fs_parent];
    for (std::uint32_t c : nodes_[fs_parent].level) {
        Node& n = nodes_[c];
        n.effective_usage = parent_usage > 0 ? usage[c] / parent_usage : 0;
        const long double s = n.norm_shares;
        if (at_parent(c))
            n.level_fs = n.user ? INFINITY : kNoValLevelFs;
        else if (s == 0)
            n.level_fs = 0;
        else
            n.level_fs = s / n.effective_usage; // U = 0 < S: ∞, the highest
    }
    // Equal LF and kind keep the level's order: a total order, so last
    // pass's order, kept, is a nearly sorted start.
    std::vector<std::uint32_t>& order = nodes_[fs_parent].order;
    const auto before = [this](std::uint32_t a, std::uint32_t b) {
        if (nodes_[a].level_fs != nodes_[b].level_fs)
            return nodes_[a].level_fs > nodes_[b].level_fs;
        if (nodes_[a].user != nodes_[b].user)
            return nodes_[a].user;
        return nodes_[a].position < nodes_[b].position;
    };
    if (!std::is_sorted(order.begin(), order.end(), before))
        std::sort(order.begin(), order.end(), before);
    long double previous = kNoValLevelFs; // _calc_tree_fs's prev_level_fs
    for (std::size_t i = 0; i < order.size(); ++i) {
        Node& n = nodes_[order[i]];
        const bool tied = (i == 0 && account_tied) || previous == n.level_fs;
        if (n.user) {
            if (!tied)
                rank_ = unranked_;
            n.factor = double(rank_) / users_;
            --unranked_;
        } else {
            rank_level(order[i], tied, usage);
        }
        previous = n.level_fs;
    }
}

} // namespace burst

#pragma once
// Slurm 22.05's Fair Tree fair-share algorithm (priority/multifactor without
// PriorityFlags=NO_FAIR_TREE, the default since 19.05), as
// src/plugins/priority/multifactor/fair_tree.c and the share normalization
// of src/common/assoc_mgr.c compute it, over any association tree:
//
//   S(a) = shares(a) / Σ shares of a and its siblings     (level_shares; a
//          Fairshare=parent user counts 0 there and takes its account's S)
//   U(a) = usage(a) / usage(parent), 0 when the parent has no usage
//   LF(a) = S / U: ∞ when U = 0 < S, 0 when S = 0, ∞ for a Fairshare=parent user
//
// Ranking walks the tree depth first from root: each level's siblings are
// sorted by LF, highest first, a user before an account at equal LF (order
// among equals otherwise kept: the order they were added, Slurm's association
// order).  Every user visited takes rank = the count of users not yet visited
// (the first one all N users), except that a user whose LF equals its previous
// sibling's, or the first user of an account whose LF equals its previous
// sibling's, keeps the rank last given.  Its fair-share factor is rank / N,
// N = every user association of the tree.  22.05 does not merge the children
// of tied accounts (_count_tied_accounts stops at the first account), so a
// tie only carries into the tied account's first child.
//
// Usage is given per association, accounts' being their subtree's, as
// slurmctld keeps usage_raw; only the ratios matter, so decay, applied to
// every association alike, changes nothing here.

#include <cstdint>
#include <limits>
#include <vector>

namespace burst {

// sacctmgr's Fairshare=parent (SLURMDB_FS_USE_PARENT).
constexpr std::uint32_t kFairshareParent = std::numeric_limits<std::uint32_t>::max();

class FairTree {
public:
    static constexpr std::uint32_t kRoot = 0;

    FairTree(); // just root

    // Associations in Slurm's order among siblings; returns the new index.
    // Accounts take a number of shares; users a number or kFairshareParent.
    std::uint32_t add_account(std::uint32_t parent, std::uint32_t shares);
    std::uint32_t add_user(std::uint32_t account, std::uint32_t shares);

    std::size_t size() const { return nodes_.size(); }
    std::uint32_t user_count() const { return users_; }

    // One decay-thread pass: U, LF and the users' factors from `usage`, one
    // value per association (index order).
    void rank(const std::vector<double>& usage);

    // S of every association from the shares (rank() calls it first).
    void normalize();
    // S of the association, once normalized.
    double norm_shares(std::uint32_t a) const { return nodes_[a].norm_shares; }
    // From the last rank(): U, LF and, for users, the factor (accounts: 0,
    // which Slurm never sets for them).
    double effective_usage(std::uint32_t a) const { return double(nodes_[a].effective_usage); }
    long double level_fs(std::uint32_t a) const { return nodes_[a].level_fs; }
    double fairshare_factor(std::uint32_t a) const { return nodes_[a].factor; }

private:
    struct Node {
        std::uint32_t parent = 0;
        bool user = false;
        std::uint32_t shares = 1;
        double norm_shares = 0;
        long double effective_usage = 0;
        long double level_fs = 0;
        double factor = 0;
        std::vector<std::uint32_t> children; // in the order added
        std::vector<std::uint32_t> order;    // by LF at the last rank()
    };

    std::uint32_t add(std::uint32_t parent, bool user, std::uint32_t shares);
    void normalize_level(std::uint32_t parent);
    void rank_level(std::uint32_t parent, bool account_tied, const std::vector<double>& usage);

    std::vector<Node> nodes_;
    std::uint32_t users_ = 0;
    bool normalized_ = false; // S of every association is up to date
    std::uint32_t rank_ = 0;     // rank of the last user ranked
    std::uint32_t unranked_ = 0; // users not yet visited (Slurm's rnt)
};

} // namespace burst

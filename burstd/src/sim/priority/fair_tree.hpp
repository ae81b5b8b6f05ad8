#pragma once
// Slurm 22.05's Fair Tree fair-share algorithm (priority/multifactor without
// PriorityFlags=NO_FAIR_TREE, the default since 19.05), as
// src/plugins/priority/multifactor/fair_tree.c and the share normalization
// of src/common/assoc_mgr.c compute it, over any association tree.
//
// Fairshare=parent (SLURMDB_FS_USE_PARENT): every association's fair-share
// parent G is its nearest ancestor not at Fairshare=parent (fs_assoc_ptr,
// _find_assoc_parent), and Fair Tree ranks the association among G's
// fair-share children (G's children_list).  So the children of an account X
// at Fairshare=parent sit in X's parent's level, next to X, and X's own level
// is empty.  A level lists its associations depth first over the direct
// tree, each account's direct children in the order added here: Slurm's
// order once slurmctld has re-sorted its list (slurmdb_sort_hierarchical_
// assoc_list, after any sacctmgr change); at start-up it builds the levels
// before sorting, in slurmdbd's order, which can differ only in how two
// tied accounts rank.  Per level:
//
//   S(a) = shares(a) / Σ shares of the level not at Fairshare=parent
//          (level_shares); at Fairshare=parent, S(G) instead.  Root's S is 0
//          (root is in no level: level_shares 0), as sshare shows it.
//   U(a) = usage(a) / usage(G), 0 when G has no usage
//   LF(a) = S / U: ∞ when U = 0 < S, 0 when S = 0; at Fairshare=parent ∞
//          for a user (first in its level, tied with its likes) and NO_VAL
//          (4294967294, a huge finite LF) for an account, which then ranks
//          nothing itself.
//
// Ranking walks the levels depth first from root: each level is sorted by LF,
// highest first, a user before an account at equal LF (order among equals
// otherwise kept: the level's order).  Every user visited takes rank = the
// count of users not yet visited (the first one all N users), except that a
// user whose LF equals the previous one's in its level, or the first user of
// an account whose LF equals its previous sibling's, keeps the rank last
// given; as in _calc_tree_fs, "the previous one" of a level's first is NO_VAL
// (it ties only with an LF of exactly NO_VAL) unless its account was tied.
// Its fair-share factor is rank / N, N = every user association of the tree.
// 22.05 does not merge the children of tied accounts (_count_tied_accounts
// stops at the first account), so a tie only carries into the tied account's
// first child.
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
// LF of an account at Fairshare=parent: Slurm's NO_VAL.
constexpr long double kNoValLevelFs = 4294967294.0L;

class FairTree {
public:
    static constexpr std::uint32_t kRoot = 0;

    FairTree(); // just root

    // Associations in Slurm's order among siblings (users before accounts,
    // each by name, for a tree as sshare lists it); returns the new index.
    // Shares: a number or kFairshareParent.
    std::uint32_t add_account(std::uint32_t parent, std::uint32_t shares);
    std::uint32_t add_user(std::uint32_t account, std::uint32_t shares);

    std::size_t size() const { return nodes_.size(); }

    // One decay-thread pass: U, LF and the users' factors from `usage`, one
    // value per association (index order).
    void rank(const std::vector<double>& usage);

    // The levels and S of every association from the tree and its shares
    // (rank() calls it first).
    void normalize();
    // S of the association, once normalized.
    double norm_shares(std::uint32_t a) const { return nodes_[a].norm_shares; }
    // From the last rank(): U, LF (kNoValLevelFs for an account at
    // Fairshare=parent) and, for users, the factor (accounts: 0, which Slurm
    // never sets for them).
    double effective_usage(std::uint32_t a) const { return double(nodes_[a].effective_usage); }
    long double level_fs(std::uint32_t a) const { return nodes_[a].level_fs; }
    double fairshare_factor(std::uint32_t a) const { return nodes_[a].factor; }

private:
    struct Node {
        std::uint32_t parent = 0; // in the tree
        bool user = false;
        std::uint32_t shares = 1;
        double norm_shares = 0;
        long double effective_usage = 0;
        long double level_fs = 0;
        double factor = 0;
        std::uint32_t position = 0;          // in its fair-share parent's level
        std::vector<std::uint32_t> children; // in the tree, in the order added
        std::vector<std::uint32_t> level;    // fair-share children, Slurm's order
        std::vector<std::uint32_t> order;    // the level by LF at the last rank()
    };

    std::uint32_t add(std::uint32_t parent, bool user, std::uint32_t shares);
    bool at_parent(std::uint32_t a) const { return nodes_[a].shares == kFairshareParent; }
    void build_level(std::uint32_t parent, std::uint32_t fs_parent);
    void normalize_level(std::uint32_t fs_parent);
    void rank_level(std::uint32_t fs_parent, bool account_tied, const std::vector<double>& usage);

    std::vector<Node> nodes_;
    std::uint32_t users_ = 0;
    bool normalized_ = false; // the levels and S of every association are up to date
    std::uint32_t rank_ = 0;     // rank of the last user ranked
    std::uint32_t unranked_ = 0; // users not yet visited (Slurm's rnt)
};

} // namespace burst

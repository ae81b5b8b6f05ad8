#pragma once
// Splits a site's budget across the accounts that have work, the way PFA
// gives every user a budget of its own (Ilyushkin et al., §2.1), with the
// weights Slurm's fair-share already holds for those accounts.

#include "model/share.hpp"

#include <map>
#include <string>
#include <vector>

namespace burst {

// fairshare: machine share × fair-share factor (an account that used more
// than its share gets less); shares: machine share only; equal.
enum class BudgetSplit { FairShare, Shares, Equal };

// An account's machine share is what its subtree holds of the whole
// association tree, divided as Slurm divides it: from the top down, each
// level's associations (users and sub-accounts) split their parent's share
// by raw shares.  An association at Fairshare=parent holds no share of its
// own; its children join the level of its nearest ancestor that is not
// (Slurm's fs_assoc_ptr), so an account at Fairshare=parent holds what its
// children hold.  Where jobs charge both an account and one of its
// descendants, the descendant's share is counted in its own weight only.
// The tree's top is root (the association without a parent), which holds
// the whole machine; an account under a parent the snapshot lacks, or on a
// parent cycle, is in no level and holds nothing, as in Slurm.  A snapshot
// without root (burstsim's) has every account whose parent it lacks as a
// top, split by raw shares; a top at Fairshare=parent keeps its children in
// its own level.  Users at Fairshare=parent hold nothing (Slurm ranks them
// first within their account instead): an account whose users all are,
// and which has sub-accounts with work, keeps only what its sub-accounts
// without work hold.  Slurm's normalized
// shares are not used: under Fair Tree they are relative to the
// association's level, not to the machine.
//
// The factor is the account's; an account whose factor is 0 while its users
// have theirs (Fair Tree, which ranks users only) takes its user
// associations' mean factor.  When no given account has a weight, or every
// weight is 0, fairshare falls back to shares and shares to equal; an
// account without an association otherwise gets 0.  The parts add up to
// `budget` (or to 0 when there are no accounts).
std::map<std::string, double> split_budget(double budget, const std::vector<std::string>& accounts,
                                           const std::vector<Share>& shares, BudgetSplit how);

} // namespace burst

#pragma once
// Splits a site's budget across the accounts that have work, the way PFA
// gives every user a budget of its own (Ilyushkin et al., §2.1), with the
// weights Slurm's fair-share already holds for those accounts.

#include "model/share.hpp"

#include <map>
#include <string>
#include <vector>

namespace burst {

// fairshare: normalized shares × fair-share factor (an account that used
// more than its share gets less); shares: normalized shares only; equal.
enum class BudgetSplit { FairShare, Shares, Equal };

// Account-level associations (empty user) give the weights; an account whose
// factor is 0 while its users have theirs (Fair Tree, which ranks users only)
// takes its user associations' mean factor.  When no given
// account has one, or every weight is 0, fairshare falls back to shares and
// shares to equal; an account without an association otherwise gets 0.
// The parts add up to `budget` (or to 0 when there are no accounts).
std::map<std::string, double> split_budget(double budget, const std::vector<std::string>& accounts,
                                           const std::vector<Share>& shares, BudgetSplit how);

} // namespace burst

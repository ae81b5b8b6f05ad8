#include "sim/fair_tree.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;
using InvalidArgument = std::invalid_argument; // CHECK_THROWS takes a plain name

TEST_GROUP(FairTree){};

// root ─ A (3 shares): a1, a2 (1 each)        usage a1 30, a2 10, A 40
//      └ B (1 share):  b1, b2 (1 each)        usage b1 0,  b2 60, B 60
// Level 1: S_A = 0.75, U_A = 0.4, LF_A = 1.875; S_B = 0.25, U_B = 0.6,
// LF_B = 0.41667: A's users rank first.  In A: LF_a2 = 0.5/0.25 = 2 ranks
// above LF_a1 = 0.5/0.75 = 0.667; in B: b1 has no usage, LF = ∞, above b2's
// 0.5.  Factors rank/4: a2 1, a1 0.75, b1 0.5, b2 0.25.  The classic
// algorithm gives a user its account's 2^(−U/S): a1 = a2 = 0.691,
// b1 = b2 = 0.189, and would put b1 below a1.
TEST(FairTree, RanksUsersDepthFirstByLevelFairshareAndFactorIsRankOverUserCount)
{
    FairTree t;
    const auto A = t.add_account(FairTree::kRoot, 3), B = t.add_account(FairTree::kRoot, 1);
    const auto a1 = t.add_user(A, 1), a2 = t.add_user(A, 1), b1 = t.add_user(B, 1), b2 = t.add_user(B, 1);
    LONGS_EQUAL(4, t.user_count());
    std::vector<double> usage(t.size());
    usage[a1] = 30, usage[a2] = 10, usage[A] = 40, usage[b2] = 60, usage[B] = 60, usage[FairTree::kRoot] = 100;
    t.rank(usage);

    DOUBLES_EQUAL(0.75, t.norm_shares(A), 1e-12);
    DOUBLES_EQUAL(0.5, t.norm_shares(b1), 1e-12);
    DOUBLES_EQUAL(0.4, t.effective_usage(A), 1e-12);
    DOUBLES_EQUAL(0.75, t.effective_usage(a1), 1e-12);
    DOUBLES_EQUAL(1.875, double(t.level_fs(A)), 1e-12);
    DOUBLES_EQUAL(0.25 / 0.6, double(t.level_fs(B)), 1e-12);
    DOUBLES_EQUAL(2, double(t.level_fs(a2)), 1e-12);
    DOUBLES_EQUAL(0.5 / 0.75, double(t.level_fs(a1)), 1e-12);
    CHECK(std::isinf(t.level_fs(b1)));
    DOUBLES_EQUAL(1.0, t.fairshare_factor(a2), 1e-12);
    DOUBLES_EQUAL(0.75, t.fairshare_factor(a1), 1e-12);
    DOUBLES_EQUAL(0.5, t.fairshare_factor(b1), 1e-12);
    DOUBLES_EQUAL(0.25, t.fairshare_factor(b2), 1e-12);
    DOUBLES_EQUAL(0, t.fairshare_factor(A), 0); // slurmctld never sets it for accounts

    // Usage moves the ranks: B's heavy user stops, A's light one runs a lot.
    usage[a1] = 30, usage[a2] = 200, usage[A] = 230, usage[b2] = 10, usage[B] = 10, usage[FairTree::kRoot] = 240;
    t.rank(usage);
    DOUBLES_EQUAL(0.25 / (10.0 / 240), double(t.level_fs(B)), 1e-9); // 6: B now ranks first
    DOUBLES_EQUAL(1.0, t.fairshare_factor(b1), 1e-12);
    DOUBLES_EQUAL(0.75, t.fairshare_factor(b2), 1e-12);
    DOUBLES_EQUAL(0.5, t.fairshare_factor(a1), 1e-12);
    DOUBLES_EQUAL(0.25, t.fairshare_factor(a2), 1e-12);
}

// Tied siblings keep the rank: a1 and a2 used the same, so both take rank 4;
// the next user visited takes the rank that counts both (2).
TEST(FairTree, SiblingUsersWithEqualLevelFairshareShareTheirRank)
{
    FairTree t;
    const auto A = t.add_account(FairTree::kRoot, 3), B = t.add_account(FairTree::kRoot, 1);
    const auto a1 = t.add_user(A, 1), a2 = t.add_user(A, 1), b1 = t.add_user(B, 1), b2 = t.add_user(B, 1);
    std::vector<double> usage(t.size());
    usage[a1] = 20, usage[a2] = 20, usage[A] = 40, usage[b2] = 60, usage[B] = 60, usage[FairTree::kRoot] = 100;
    t.rank(usage);
    DOUBLES_EQUAL(1.0, t.fairshare_factor(a1), 1e-12);
    DOUBLES_EQUAL(1.0, t.fairshare_factor(a2), 1e-12);
    DOUBLES_EQUAL(0.5, t.fairshare_factor(b1), 1e-12);
    DOUBLES_EQUAL(0.25, t.fairshare_factor(b2), 1e-12);
}

// root ─ user r (1), A (1): a1, a2, B (1): b1, b2.  Usage only b1 30.
// Level 1: r and A have U = 0, LF = ∞, B LF = (1/3)/1; r, a user, sorts
// before the account A it ties with, takes rank 5, and A's first user
// starts tied with it (rule 3): a1 5, then a2 tied with a1 (both ∞ under a
// parent with no usage) 5; B is not tied: b2 (∞) 2, b1 (0.5) 1.
TEST(FairTree, AUserTiedWithASiblingAccountSharesItsRankWithTheAccountsFirstUser)
{
    FairTree t;
    const auto r = t.add_user(FairTree::kRoot, 1);
    const auto A = t.add_account(FairTree::kRoot, 1), B = t.add_account(FairTree::kRoot, 1);
    const auto a1 = t.add_user(A, 1), a2 = t.add_user(A, 1), b1 = t.add_user(B, 1), b2 = t.add_user(B, 1);
    std::vector<double> usage(t.size());
    usage[b1] = 30, usage[B] = 30, usage[FairTree::kRoot] = 30;
    t.rank(usage);
    LONGS_EQUAL(5, t.user_count());
    CHECK(std::isinf(t.level_fs(r)));
    CHECK(std::isinf(t.level_fs(A)));
    CHECK(std::isinf(t.level_fs(a1))); // parent without usage: U = 0
    DOUBLES_EQUAL(1.0, t.fairshare_factor(r), 1e-12);
    DOUBLES_EQUAL(1.0, t.fairshare_factor(a1), 1e-12);
    DOUBLES_EQUAL(1.0, t.fairshare_factor(a2), 1e-12);
    DOUBLES_EQUAL(0.4, t.fairshare_factor(b2), 1e-12);
    DOUBLES_EQUAL(0.2, t.fairshare_factor(b1), 1e-12);
}

// Two accounts with equal LF (1 each).  Slurm 22.05 does not merge their
// children (_count_tied_accounts stops at an account): A's users rank 4 and
// 3, then B's first user starts tied with the last rank given (3) and B's
// second takes 1.  Merging would have given a1 = b1 = 1 and a2 = b2 = 0.5.
TEST(FairTree, TiedAccountsAreNotMergedOnlyTheSecondOnesFirstUserTies)
{
    FairTree t;
    const auto A = t.add_account(FairTree::kRoot, 1), B = t.add_account(FairTree::kRoot, 1);
    const auto a1 = t.add_user(A, 1), a2 = t.add_user(A, 1), b1 = t.add_user(B, 1), b2 = t.add_user(B, 1);
    std::vector<double> usage(t.size());
    usage[a1] = 10, usage[a2] = 30, usage[A] = 40, usage[b1] = 10, usage[b2] = 30, usage[B] = 40;
    usage[FairTree::kRoot] = 80;
    t.rank(usage);
    CHECK(t.level_fs(A) == t.level_fs(B));
    DOUBLES_EQUAL(1.0, t.fairshare_factor(a1), 1e-12);
    DOUBLES_EQUAL(0.75, t.fairshare_factor(a2), 1e-12);
    DOUBLES_EQUAL(0.75, t.fairshare_factor(b1), 1e-12);
    DOUBLES_EQUAL(0.25, t.fairshare_factor(b2), 1e-12);
}

// Zero shares: LF = 0, the lowest, whatever the usage (an account with no
// usage and zero shares too).  Fairshare=parent users: LF = ∞ in their
// account, S = the account's, and they add nothing to the level's shares.
TEST(FairTree, ZeroSharesRankLastAndParentUsersRankFirstInTheirAccount)
{
    FairTree t;
    const auto A = t.add_account(FairTree::kRoot, 2), Z = t.add_account(FairTree::kRoot, 0);
    const auto p = t.add_user(A, kFairshareParent), a = t.add_user(A, 4), z = t.add_user(Z, 1);
    std::vector<double> usage(t.size());
    usage[p] = 50, usage[a] = 1, usage[A] = 51, usage[FairTree::kRoot] = 51;
    t.rank(usage);
    DOUBLES_EQUAL(0, double(t.level_fs(Z)), 0);
    DOUBLES_EQUAL(1.0, t.norm_shares(A), 1e-12);
    DOUBLES_EQUAL(1.0, t.norm_shares(a), 1e-12); // p counts 0 in the level
    DOUBLES_EQUAL(1.0, t.norm_shares(p), 1e-12); // the account's S
    CHECK(std::isinf(t.level_fs(p)));
    DOUBLES_EQUAL(51, double(t.level_fs(a)), 1e-9);
    DOUBLES_EQUAL(1.0, t.fairshare_factor(p), 1e-12);
    DOUBLES_EQUAL(2.0 / 3, t.fairshare_factor(a), 1e-12);
    DOUBLES_EQUAL(1.0 / 3, t.fairshare_factor(z), 1e-12);
}

TEST(FairTree, RejectsUsersAsParentsAccountsAtParentAndAShortUsageVector)
{
    FairTree t;
    const auto u = t.add_user(FairTree::kRoot, 1);
    CHECK_THROWS(InvalidArgument, t.add_user(u, 1));
    CHECK_THROWS(InvalidArgument, t.add_account(FairTree::kRoot, kFairshareParent));
    CHECK_THROWS(InvalidArgument, t.rank(std::vector<double>(1)));
}

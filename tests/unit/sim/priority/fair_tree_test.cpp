#include "sim/priority/fair_tree.hpp"

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

// An account at Fairshare=parent hands its users to its parent's level:
// root ─ A (2): a1, a2 (1 each)                 usage a1 10, a2 30, A 40
//      ├ P (parent): p1 (1), p2 (3), pp (parent) usage p1 20, pp 10, P 30
//      └ B (1): b1 (1)                          usage b1 30, B 30; root 100
// Root's level, in Slurm's (depth-first) order: A, P, p1, p2, pp, B.  Its
// shares: A 2 + p1 1 + p2 3 + B 1 = 7 (P and pp add none), so S: A 2/7,
// p1 1/7, p2 3/7, B 1/7, and P = pp = root's S, 0.  U against root: A 0.4,
// P 0.3, p1 0.2, p2 0, pp 0.1, B 0.3.  LF: p2 ∞ (no usage), pp ∞
// (Fairshare=parent user), P NO_VAL, p1 (1/7)/0.2 = A (2/7)/0.4 = 0.714,
// B 0.476.  Order: p2, pp (tied), P (ranks no one), p1, A (tied with p1: a1
// keeps p1's rank), B.  Ranks of 6: p2 6, pp 6, p1 4, a1 4 (in A: LF 2),
// a2 2 (LF 0.667), b1 1.
TEST(FairTree, AnAccountAtParentHandsItsUsersToItsParentsLevel)
{
    FairTree t;
    const auto A = t.add_account(FairTree::kRoot, 2), P = t.add_account(FairTree::kRoot, kFairshareParent),
               B = t.add_account(FairTree::kRoot, 1);
    const auto a1 = t.add_user(A, 1), a2 = t.add_user(A, 1);
    const auto p1 = t.add_user(P, 1), p2 = t.add_user(P, 3), pp = t.add_user(P, kFairshareParent);
    const auto b1 = t.add_user(B, 1);
    std::vector<double> usage(t.size());
    usage[a1] = 10, usage[a2] = 30, usage[A] = 40, usage[p1] = 20, usage[pp] = 10, usage[P] = 30;
    usage[b1] = 30, usage[B] = 30, usage[FairTree::kRoot] = 100;
    t.rank(usage);

    DOUBLES_EQUAL(0, t.norm_shares(FairTree::kRoot), 0); // as sshare shows it
    DOUBLES_EQUAL(2.0 / 7, t.norm_shares(A), 1e-12);
    DOUBLES_EQUAL(1.0 / 7, t.norm_shares(p1), 1e-12);
    DOUBLES_EQUAL(3.0 / 7, t.norm_shares(p2), 1e-12);
    DOUBLES_EQUAL(1.0 / 7, t.norm_shares(B), 1e-12);
    DOUBLES_EQUAL(0, t.norm_shares(P), 0);
    DOUBLES_EQUAL(0, t.norm_shares(pp), 0);
    DOUBLES_EQUAL(0.3, t.effective_usage(P), 1e-12);
    DOUBLES_EQUAL(0.2, t.effective_usage(p1), 1e-12); // against root, not P
    DOUBLES_EQUAL(0.1, t.effective_usage(pp), 1e-12);
    CHECK(t.level_fs(P) == kNoValLevelFs);
    CHECK(std::isinf(t.level_fs(pp)));
    CHECK(std::isinf(t.level_fs(p2)));
    CHECK(t.level_fs(p1) == t.level_fs(A));
    DOUBLES_EQUAL(5.0, double(t.level_fs(p1)) * 7, 1e-12);
    DOUBLES_EQUAL(1.0 / 7 / 0.3, double(t.level_fs(B)), 1e-12);
    DOUBLES_EQUAL(1.0, t.fairshare_factor(p2), 1e-12);
    DOUBLES_EQUAL(1.0, t.fairshare_factor(pp), 1e-12);
    DOUBLES_EQUAL(4.0 / 6, t.fairshare_factor(p1), 1e-12);
    DOUBLES_EQUAL(4.0 / 6, t.fairshare_factor(a1), 1e-12);
    DOUBLES_EQUAL(2.0 / 6, t.fairshare_factor(a2), 1e-12);
    DOUBLES_EQUAL(1.0 / 6, t.fairshare_factor(b1), 1e-12);
}

// Fairshare=parent nested: every association ranks in the level of its
// nearest ancestor not at parent (fs_assoc_ptr), an account under X too.
// root ─ C (1) ─ c1 (1)                              usage c1 20
//              ├ X (parent) ─ x1 (parent)            x1 0
//              │            ├ Y (parent) ─ y1 (1)    y1 20, Y 20
//              │            └ D (2) ─ d1, d2 (1)     d1 10, d2 20, D 30; X 50
//              └ Z (2) ─ z1 (1)                      z1 30, Z 30; C = root 100
// C's level in Slurm's order, depth first over the tree (not the order of
// creation: Z and its user come before D here): c1, X, x1, Y, y1, D, Z.
// Shares c1 1 + y1 1 + D 2 + Z 2 = 6: S c1 1/6, y1 1/6, D 1/3, Z 1/3, and
// X, Y, x1 take C's S, 1.  U against C: c1 0.2, X 0.5, x1 0, Y 0.2, y1 0.2,
// D 0.3, Z 0.3.  LF: x1 ∞, X and Y NO_VAL, D = Z = 1.11, c1 = y1 = 0.833.
// Ranks of 6: x1 6; D first of the tied accounts: d1 (LF 1.5) 5, d2 (0.75)
// 4; z1 keeps d2's 4; c1 and y1 tie at 2.  Z first would give z1 5, d1 5,
// d2 3.
TEST(FairTree, NestedParentAccountsRankEverythingInTheNearestLevelNotAtParent)
{
    FairTree t;
    const auto C = t.add_account(FairTree::kRoot, 1);
    const auto c1 = t.add_user(C, 1);
    const auto X = t.add_account(C, kFairshareParent);
    const auto x1 = t.add_user(X, kFairshareParent);
    const auto Y = t.add_account(X, kFairshareParent);
    const auto Z = t.add_account(C, 2);
    const auto z1 = t.add_user(Z, 1);
    const auto D = t.add_account(X, 2);
    const auto d1 = t.add_user(D, 1), d2 = t.add_user(D, 1);
    const auto y1 = t.add_user(Y, 1);
    std::vector<double> usage(t.size());
    usage[c1] = 20, usage[y1] = 20, usage[Y] = 20, usage[d1] = 10, usage[d2] = 20, usage[D] = 30, usage[X] = 50;
    usage[z1] = 30, usage[Z] = 30, usage[C] = 100, usage[FairTree::kRoot] = 100;
    t.rank(usage);

    DOUBLES_EQUAL(1.0, t.norm_shares(X), 1e-12);
    DOUBLES_EQUAL(1.0, t.norm_shares(Y), 1e-12);
    DOUBLES_EQUAL(1.0, t.norm_shares(x1), 1e-12);
    DOUBLES_EQUAL(1.0 / 6, t.norm_shares(c1), 1e-12);
    DOUBLES_EQUAL(1.0 / 6, t.norm_shares(y1), 1e-12);
    DOUBLES_EQUAL(1.0 / 3, t.norm_shares(D), 1e-12);
    DOUBLES_EQUAL(0.5, t.norm_shares(d1), 1e-12);
    DOUBLES_EQUAL(0.2, t.effective_usage(y1), 1e-12); // against C
    DOUBLES_EQUAL(0.3, t.effective_usage(D), 1e-12);
    DOUBLES_EQUAL(1.0 / 3, t.effective_usage(d1), 1e-12);
    CHECK(t.level_fs(X) == kNoValLevelFs);
    CHECK(t.level_fs(Y) == kNoValLevelFs);
    CHECK(t.level_fs(D) == t.level_fs(Z));
    CHECK(t.level_fs(c1) == t.level_fs(y1));
    DOUBLES_EQUAL(1.0, t.fairshare_factor(x1), 1e-12);
    DOUBLES_EQUAL(5.0 / 6, t.fairshare_factor(d1), 1e-12);
    DOUBLES_EQUAL(4.0 / 6, t.fairshare_factor(d2), 1e-12);
    DOUBLES_EQUAL(4.0 / 6, t.fairshare_factor(z1), 1e-12);
    DOUBLES_EQUAL(2.0 / 6, t.fairshare_factor(c1), 1e-12);
    DOUBLES_EQUAL(2.0 / 6, t.fairshare_factor(y1), 1e-12);
}

// _calc_tree_fs starts each level with prev_level_fs = NO_VAL, so a level's
// first association ties with its predecessor when its LF is exactly NO_VAL.
// root ─ r (user, no usage: ∞, rank 3) and A (1) ─ u (1), v (0): u's S is
// 1, U = 1 / 4294967294, LF = NO_VAL, first in A: it keeps r's rank.
TEST(FairTree, ALevelsFirstAssociationWithLevelFairshareNoValTiesWithThePreviousRank)
{
    FairTree t;
    const auto r = t.add_user(FairTree::kRoot, 1);
    const auto A = t.add_account(FairTree::kRoot, 1);
    const auto u = t.add_user(A, 1), v = t.add_user(A, 0);
    std::vector<double> usage(t.size());
    usage[u] = 1, usage[v] = 4294967293, usage[A] = 4294967294, usage[FairTree::kRoot] = 4294967294;
    t.rank(usage);
    CHECK(t.level_fs(u) == kNoValLevelFs);
    DOUBLES_EQUAL(1.0, t.fairshare_factor(r), 1e-12);
    DOUBLES_EQUAL(1.0, t.fairshare_factor(u), 1e-12); // 2/3 but for the quirk
    DOUBLES_EQUAL(1.0 / 3, t.fairshare_factor(v), 1e-12);
}

TEST(FairTree, RejectsUsersAsParentsAndAShortUsageVector)
{
    FairTree t;
    const auto u = t.add_user(FairTree::kRoot, 1);
    CHECK_THROWS(InvalidArgument, t.add_user(u, 1));
    CHECK_THROWS(InvalidArgument, t.add_account(u, kFairshareParent));
    CHECK_THROWS(InvalidArgument, t.rank(std::vector<double>(1)));
}

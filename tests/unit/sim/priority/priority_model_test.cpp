#include "policy/budget/budget_split.hpp"
#include "sim/priority/priority_model.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;
using OutOfRange = std::out_of_range; // CHECK_THROWS takes a plain name
using InvalidArgument = std::invalid_argument;

TEST_GROUP(MultifactorPriority){};

// Two accounts under root, shares 1 and 3, half-life 1000 s, so
// d = 1 − 0.693/1000 = 0.999307 per second and shares_norm = 0.25, 0.75.
// Passes at 0, 300 and 600.  Job of a: 2 cpus, runs 0–100 (ends between
// passes); job of b: 1 cpu, running from 0 on.
//   pass 300: F from usage so far: a has it all, F_a = 2^(−1/0.25) = 0.0625,
//             F_b = 2^0 = 1; then a's 2·100·d^100 decays by d^300 and b
//             adds 300·d^300.
//   pass 600: u_a = 200·d^400 = 151.566015, u_b = 300·d^300 = 243.668916,
//             norm_a = 0.383483, F_a = 2^(−0.383483/0.25) = 0.345335,
//             F_b = 2^(−0.616517/0.75) = 0.565649.
TEST(MultifactorPriority, ClassicFairShareFactorWithDecayMatchesHandComputedValues)
{
    PriorityConfig c;
    c.type = PriorityType::Multifactor;
    c.fair_tree = false;
    c.decay_half_life = 1000;
    c.shares.accounts = {{"a", 1}, {"b", 3}};
    MultifactorPriority m(c, {{"a", "a"}, {"b", "b"}}, 10, 2);
    const auto a = m.association("a", "a"), b = m.association("b", "b");
    DOUBLES_EQUAL(1.0, m.fairshare_factor(a), 1e-12);

    m.begin_pass(0);
    m.charge_running(b, 1, 0); // the first pass charges nothing: no last run yet
    m.charge_ended(a, 2, 0, 100);
    CHECK(m.usage_since_pass());
    DOUBLES_EQUAL(0.0, m.usage(b), 1e-12);

    m.begin_pass(300);
    m.charge_running(b, 1, 0);
    m.end_charges(); // classic took its factors at begin_pass
    DOUBLES_EQUAL(0.0625, m.fairshare_factor(a), 1e-12);
    DOUBLES_EQUAL(1.0, m.fairshare_factor(b), 1e-12);
    DOUBLES_EQUAL(151.5660149597555, m.usage(a), 1e-9);
    DOUBLES_EQUAL(243.66891643334307, m.usage(b), 1e-9);

    m.begin_pass(600);
    DOUBLES_EQUAL(0.34533455493070137, m.fairshare_factor(a), 1e-12);
    DOUBLES_EQUAL(0.5656485264803058, m.fairshare_factor(b), 1e-12);
    CHECK(!m.usage_since_pass());

    std::vector<Share> shares;
    m.fill_shares(shares);
    LONGS_EQUAL(2, shares.size());
    STRCMP_EQUAL("a", shares[0].account.c_str());
    STRCMP_EQUAL("", shares[0].user.c_str());
    STRCMP_EQUAL("root", shares[0].parent.c_str());
    DOUBLES_EQUAL(1, shares[0].raw_shares, 0);
    DOUBLES_EQUAL(0.25, shares[0].norm_shares, 1e-12);
    DOUBLES_EQUAL(0.38348334856315813, shares[0].norm_usage, 1e-12);
    DOUBLES_EQUAL(0.34533455493070137, shares[0].fairshare_factor, 1e-12);
    DOUBLES_EQUAL(0.75, shares[1].norm_shares, 1e-12);
}

TEST(MultifactorPriority, PrioritySumsWeightedAgeFairShareAndJobSizeFactors)
{
    PriorityConfig c;
    c.type = PriorityType::Multifactor;
    c.fair_tree = false;
    c.weight_age = 1000;
    c.weight_fairshare = 10000;
    c.max_age = 3600;
    c.shares.accounts = {{"a", 1}, {"b", 3}};
    MultifactorPriority m(c, {{"a", "x"}, {"b", "x"}, {"c", "x"}}, 10, 2); // c: default 1 share, so 0.2, 0.6, 0.2
    const auto a = m.association("a", "x"), b = m.association("b", "x"), cc = m.association("c", "x");
    m.begin_pass(0);
    m.charge_ended(a, 1, 0, 10);
    m.begin_pass(60); // F_a = 2^(−1/0.2) = 1/32, F_b = F_c = 1
    // 600 s of 3600 waited: 1000 × 1/6 + 10000 × 1/32 = 479.2
    LONGS_EQUAL(479, m.priority(600, 0, a, 4));
    LONGS_EQUAL(1000 + 10000, m.priority(7200, 0, b, 4)); // age capped at 1
    LONGS_EQUAL(10000, m.priority(600, 600, cc, 4));

    PriorityConfig size;
    size.type = PriorityType::Multifactor;
    size.weight_jobsize = 1000;
    MultifactorPriority large(size, {{"a", "u"}}, 10, 2);
    LONGS_EQUAL(450, large.priority(0, 0, 0, 4)); // (1/2 + 4/10) / 2
    size.favor_small = true;
    MultifactorPriority small(size, {{"a", "u"}}, 10, 2);
    LONGS_EQUAL(550, small.priority(0, 0, 0, 4)); // (1/2 + 6/10) / 2

    PriorityConfig none;
    none.type = PriorityType::Multifactor;
    MultifactorPriority zero(none, {{"a", "u"}}, 10, 2);
    LONGS_EQUAL(1, zero.priority(600, 0, 0, 4)); // every weight 0 (Slurm's default): 1, ties go by submit time
}

TEST(MultifactorPriority, ClassicAccountWithZeroSharesHasFactorZeroAndUnknownAssociationsThrow)
{
    PriorityConfig c;
    c.type = PriorityType::Multifactor;
    c.fair_tree = false;
    c.shares.accounts = {{"a", 0}};
    MultifactorPriority m(c, {{"a", "u"}, {"b", "u"}}, 10, 2);
    DOUBLES_EQUAL(0, m.fairshare_factor(m.association("a", "u")), 0);
    DOUBLES_EQUAL(1, m.fairshare_factor(m.association("b", "u")), 0);
    CHECK_THROWS(OutOfRange, m.association("a", "nobody"));
    CHECK_THROWS(OutOfRange, m.association("nobody", "u"));

    c.shares.users = {{{"a", "u"}, 2}}; // classic models users at Fairshare=parent only
    CHECK_THROWS(InvalidArgument, MultifactorPriority(c, {{"a", "u"}}, 10, 2));
    c.shares.users.clear();
    c.shares.accounts = {{"a", kFairshareParent}}; // and every account under root
    CHECK_THROWS(InvalidArgument, MultifactorPriority(c, {{"a", "u"}}, 10, 2));
}

TEST(MultifactorPriority, WithoutHalfLifeUsageNeverDecays)
{
    PriorityConfig c;
    c.type = PriorityType::Multifactor;
    c.decay_half_life = 0;
    MultifactorPriority m(c, {{"a", "u"}}, 10, 2);
    m.begin_pass(0);
    m.charge_ended(0, 3, 0, 100);
    m.begin_pass(1e6);
    DOUBLES_EQUAL(300, m.usage(0), 1e-9);
    DOUBLES_EQUAL(300, m.account_usage(0), 1e-9);
}

// Fair Tree (the default), no decay.  Accounts a, b (1 share each); users
// a/x, a/y, b/z (1 each), so N = 3.
//   pass 0: unlike classic, the first pass charges x's running 2-cpu job
//           from its start at −100: x = a = root = 200.  Then LF_b = ∞ ranks
//           b first (z: 3/3), in a y (no usage, ∞) 2/3 above x (0.5/1) 1/3.
//           Classic would charge nothing and leave every factor at 1.
//   pass 300: z's 10-cpu job ran 0–200 (2000); x adds 2 × 300: x = 800,
//           a = 800, b = 2000, root = 2800.  LF_a = 0.5/(800/2800) = 1.75
//           above LF_b = 0.7: y 1, x 2/3, z 1/3, from the usage after the
//           pass's charges (classic takes its factors before them).
TEST(MultifactorPriority, FairTreeRanksUserAssociationsAfterThePassesUsage)
{
    PriorityConfig c;
    c.type = PriorityType::Multifactor;
    c.weight_fairshare = 1000;
    c.decay_half_life = 0;
    c.shares.accounts = {{"a", 1}, {"b", 1}};
    MultifactorPriority m(c, {{"a", "x"}, {"a", "y"}, {"b", "z"}}, 10, 2);
    const auto x = m.association("a", "x"), y = m.association("a", "y"), z = m.association("b", "z");
    DOUBLES_EQUAL(1.0, m.fairshare_factor(x), 0); // no usage: all tied at the top

    m.begin_pass(0);
    m.charge_running(x, 2, -100);
    m.end_charges();
    DOUBLES_EQUAL(200, m.usage(x), 1e-9);
    DOUBLES_EQUAL(1.0, m.fairshare_factor(z), 1e-12);
    DOUBLES_EQUAL(2.0 / 3, m.fairshare_factor(y), 1e-12);
    DOUBLES_EQUAL(1.0 / 3, m.fairshare_factor(x), 1e-12);

    m.charge_ended(z, 10, 0, 200);
    m.begin_pass(300);
    m.charge_running(x, 2, -100);
    m.end_charges();
    DOUBLES_EQUAL(800, m.account_usage(x), 1e-9);
    DOUBLES_EQUAL(1.75, double(m.account_level_fs(x)), 1e-12);
    DOUBLES_EQUAL(0.7, double(m.account_level_fs(z)), 1e-12);
    DOUBLES_EQUAL(0.5, double(m.level_fs(x)), 1e-12);
    DOUBLES_EQUAL(1.0, m.fairshare_factor(y), 1e-12);
    DOUBLES_EQUAL(2.0 / 3, m.fairshare_factor(x), 1e-12);
    DOUBLES_EQUAL(1.0 / 3, m.fairshare_factor(z), 1e-12);
    LONGS_EQUAL(1000, m.priority(300, 300, y, 1));
    LONGS_EQUAL(666, m.priority(300, 300, x, 1));
    LONGS_EQUAL(333, m.priority(300, 300, z, 1));

    // As burstd's exporter sends a Fair Tree slurmctld's associations:
    // each account (factor 0: Fair Tree never sets it) followed by its users.
    std::vector<Share> shares;
    m.fill_shares(shares);
    LONGS_EQUAL(5, shares.size());
    STRCMP_EQUAL("a", shares[0].account.c_str());
    STRCMP_EQUAL("", shares[0].user.c_str());
    STRCMP_EQUAL("root", shares[0].parent.c_str());
    DOUBLES_EQUAL(0.5, shares[0].norm_shares, 1e-12);
    DOUBLES_EQUAL(800, shares[0].raw_usage, 1e-9);
    DOUBLES_EQUAL(800.0 / 2800, shares[0].norm_usage, 1e-12);
    DOUBLES_EQUAL(0, shares[0].fairshare_factor, 0);
    STRCMP_EQUAL("x", shares[1].user.c_str());
    STRCMP_EQUAL("a", shares[1].parent.c_str());
    DOUBLES_EQUAL(1, shares[1].raw_shares, 0);
    DOUBLES_EQUAL(0.5, shares[1].norm_shares, 1e-12);
    DOUBLES_EQUAL(2.0 / 3, shares[1].fairshare_factor, 1e-12);
    STRCMP_EQUAL("y", shares[2].user.c_str());
    STRCMP_EQUAL("b", shares[3].account.c_str());
    STRCMP_EQUAL("z", shares[4].user.c_str());
    DOUBLES_EQUAL(1.0 / 3, shares[4].fairshare_factor, 1e-12);
}

// ACCOUNT/USER shares: a user at Fairshare=parent ranks first in its
// account; one with more shares needs more usage to fall behind.
TEST(MultifactorPriority, FairTreeTakesUserSharesFromTheConfig)
{
    PriorityConfig c;
    c.type = PriorityType::Multifactor;
    c.decay_half_life = 0;
    c.shares.users = {{{"a", "big"}, 3}, {{"a", "p"}, kFairshareParent}, {{"b", "idle"}, 1}};
    MultifactorPriority m(c, {{"a", "big"}, {"a", "small"}, {"a", "p"}}, 10, 2); // b/idle: from the shares only
    const auto big = m.association("a", "big"), small = m.association("a", "small"), p = m.association("a", "p");
    const auto idle = m.association("b", "idle");
    m.begin_pass(0);
    m.charge_ended(big, 1, 0, 60);   // S 3/4, U 60/100: LF 1.25
    m.charge_ended(small, 1, 0, 30); // S 1/4, U 30/100: LF 0.833
    m.charge_ended(p, 1, 0, 10);     // parent: ∞
    m.begin_pass(60);
    m.end_charges();
    // a (U = 1, LF 0.5) below b (no usage, ∞): idle 4/4, then p, big, small
    DOUBLES_EQUAL(1.0, m.fairshare_factor(idle), 1e-12);
    DOUBLES_EQUAL(0.75, m.fairshare_factor(p), 1e-12);
    DOUBLES_EQUAL(0.5, m.fairshare_factor(big), 1e-12);
    DOUBLES_EQUAL(0.25, m.fairshare_factor(small), 1e-12);
}

// An account at Fairshare=parent (--shares p=parent): its users x, y join
// root's level next to account a.  Level shares a 1 + x 1 + y 1 = 3, all
// S 1/3; usage u (in a) 30, x 10, y 60: LF x 3.33 > a 1.11 > y 0.56, p
// NO_VAL ranks no one.  F of 3: x 1, u 2/3, y 1/3.  With p at 1 share a
// (LF 1.67) would rank above p (0.71) and u above x.  The snapshot shows p
// as the exporter does: raw shares 0, fairshare_parent and root's S, 0;
// pfa's split gives p what x and y hold of root's level, 2/3.
TEST(MultifactorPriority, FairTreeAccountAtParentRanksItsUsersAmongRootsChildren)
{
    PriorityConfig c;
    c.type = PriorityType::Multifactor;
    c.decay_half_life = 0;
    c.shares.accounts = {{"p", kFairshareParent}};
    MultifactorPriority m(c, {{"a", "u"}, {"p", "x"}, {"p", "y"}}, 10, 2);
    const auto u = m.association("a", "u"), x = m.association("p", "x"), y = m.association("p", "y");
    m.begin_pass(0);
    m.charge_ended(u, 1, 0, 30);
    m.charge_ended(x, 1, 0, 10);
    m.charge_ended(y, 1, 0, 60);
    m.begin_pass(60);
    m.end_charges();
    DOUBLES_EQUAL(1.0, m.fairshare_factor(x), 1e-12);
    DOUBLES_EQUAL(2.0 / 3, m.fairshare_factor(u), 1e-12);
    DOUBLES_EQUAL(1.0 / 3, m.fairshare_factor(y), 1e-12);
    CHECK(m.account_level_fs(x) == kNoValLevelFs);
    DOUBLES_EQUAL(10.0 / 3, double(m.level_fs(x)), 1e-9);

    std::vector<Share> shares;
    m.fill_shares(shares);
    LONGS_EQUAL(5, shares.size()); // a, a/u, p, p/x, p/y
    STRCMP_EQUAL("p", shares[2].account.c_str());
    DOUBLES_EQUAL(0, shares[2].raw_shares, 0);
    DOUBLES_EQUAL(0, shares[2].norm_shares, 0);
    CHECK_TRUE(shares[2].fairshare_parent);
    CHECK_FALSE(shares[0].fairshare_parent);
    DOUBLES_EQUAL(1.0 / 3, shares[3].norm_shares, 1e-12);
    DOUBLES_EQUAL(1.0 / 3, shares[0].norm_shares, 1e-12);
    const auto budget = split_budget(3, {"a", "p"}, shares, BudgetSplit::Shares);
    DOUBLES_EQUAL(2, budget.at("p"), 1e-12);
    DOUBLES_EQUAL(1, budget.at("a"), 1e-12);
}

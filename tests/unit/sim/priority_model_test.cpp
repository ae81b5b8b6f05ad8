#include "sim/priority_model.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;
using OutOfRange = std::out_of_range; // CHECK_THROWS takes a plain name

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
    c.decay_half_life = 1000;
    c.shares = {{"a", 1}, {"b", 3}};
    MultifactorPriority m(c, {"a", "b"}, 10, 2);
    const auto a = m.account("a"), b = m.account("b");
    DOUBLES_EQUAL(1.0, m.fairshare_factor(a), 1e-12);

    m.begin_pass(0);
    m.charge_running(b, 1, 0); // the first pass charges nothing: no last run yet
    m.charge_ended(a, 2, 0, 100);
    CHECK(m.usage_since_pass());
    DOUBLES_EQUAL(0.0, m.usage(b), 1e-12);

    m.begin_pass(300);
    m.charge_running(b, 1, 0);
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
    c.weight_age = 1000;
    c.weight_fairshare = 10000;
    c.max_age = 3600;
    c.shares = {{"a", 1}, {"b", 3}};
    MultifactorPriority m(c, {"a", "b", "c"}, 10, 2); // c: default 1 share, so 0.2, 0.6, 0.2
    m.begin_pass(0);
    m.charge_ended(m.account("a"), 1, 0, 10);
    m.begin_pass(60); // F_a = 2^(−1/0.2) = 1/32, F_b = F_c = 1
    // 600 s of 3600 waited: 1000 × 1/6 + 10000 × 1/32 = 479.2
    LONGS_EQUAL(479, m.priority(600, 0, m.account("a"), 4));
    LONGS_EQUAL(1000 + 10000, m.priority(7200, 0, m.account("b"), 4)); // age capped at 1
    LONGS_EQUAL(10000, m.priority(600, 600, m.account("c"), 4));

    PriorityConfig size;
    size.type = PriorityType::Multifactor;
    size.weight_jobsize = 1000;
    MultifactorPriority large(size, {"a"}, 10, 2);
    LONGS_EQUAL(450, large.priority(0, 0, 0, 4)); // (1/2 + 4/10) / 2
    size.favor_small = true;
    MultifactorPriority small(size, {"a"}, 10, 2);
    LONGS_EQUAL(550, small.priority(0, 0, 0, 4)); // (1/2 + 6/10) / 2

    PriorityConfig none;
    none.type = PriorityType::Multifactor;
    MultifactorPriority zero(none, {"a"}, 10, 2);
    LONGS_EQUAL(1, zero.priority(600, 0, 0, 4)); // every weight 0 (Slurm's default): 1, ties go by submit time
}

TEST(MultifactorPriority, AnAccountWithZeroSharesHasFactorZeroAndUnknownAccountsThrow)
{
    PriorityConfig c;
    c.type = PriorityType::Multifactor;
    c.shares = {{"a", 0}};
    MultifactorPriority m(c, {"a", "b"}, 10, 2);
    DOUBLES_EQUAL(0, m.fairshare_factor(m.account("a")), 0);
    DOUBLES_EQUAL(1, m.fairshare_factor(m.account("b")), 0);
    CHECK_THROWS(OutOfRange, m.account("nobody"));
}

TEST(MultifactorPriority, WithoutHalfLifeUsageNeverDecays)
{
    PriorityConfig c;
    c.type = PriorityType::Multifactor;
    c.decay_half_life = 0;
    MultifactorPriority m(c, {"a"}, 10, 2);
    m.begin_pass(0);
    m.charge_ended(0, 3, 0, 100);
    m.begin_pass(1e6);
    DOUBLES_EQUAL(300, m.usage(0), 1e-9);
}

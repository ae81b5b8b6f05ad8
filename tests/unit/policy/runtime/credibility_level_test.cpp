#include "policy/runtime/credibility_level.hpp"

#include <cmath>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(CredibilityLevel){};

TEST(CredibilityLevel, AKeyNeverSeenIsItsParent)
{
    CredibilityLevel level;
    DOUBLES_EQUAL(0.3, level.estimate("a", 0.3), 0);
    CHECK(std::isinf(level.prior_weight()));
}

TEST(CredibilityLevel, KeysThatDifferFromTheirParentAreTrustedByHowMuchTheyDiffer)
{
    // a ran 1 and 3 above its parent, b 1 and 3 below: within a key the
    // offsets scatter with variance σ² = 2; the keys' own offsets (±2) have
    // E[n·mean²] = n·τ² + σ², so τ² = (2·4 + 2·4 − 2·2) / 4 = 3, and a key
    // with 2 observations weighs Z = 2 / (2 + 2/3) = 0.75 against its parent.
    CredibilityLevel level;
    level.observe("a", 0.5, 1.5);
    level.observe("a", 0.5, 3.5);
    level.observe("b", 0.5, -0.5);
    level.observe("b", 0.5, -2.5);
    DOUBLES_EQUAL(2.0 / 3.0, level.prior_weight(), 1e-12);
    DOUBLES_EQUAL(0.5 + 0.75 * 2, level.estimate("a", 0.5), 1e-12);
    DOUBLES_EQUAL(0.5 - 0.75 * 2, level.estimate("b", 0.5), 1e-12);
    // Shrunk toward the parent's estimate as it is now.
    DOUBLES_EQUAL(0.25 * 0.25 + 0.75 * 2.5, level.estimate("a", 0.25), 1e-12);
    DOUBLES_EQUAL(0.1, level.estimate("c", 0.1), 0);
}

TEST(CredibilityLevel, KeysNoMoreApartThanTheirScatterExplainsAddNothing)
{
    // Both keys ran 1 above and 1 below their parent: they do not differ,
    // so one key's two observations are noise, not evidence about the key.
    CredibilityLevel level;
    level.observe("a", 0, 1);
    level.observe("a", 0, -1);
    level.observe("b", 0, 1);
    level.observe("b", 0, -1);
    CHECK(std::isinf(level.prior_weight()));
    DOUBLES_EQUAL(0.4, level.estimate("a", 0.4), 0);
}

TEST(CredibilityLevel, OneObservationPerKeyCannotTellScatterFromDifference)
{
    CredibilityLevel level;
    level.observe("a", 0, 1);
    level.observe("b", 0, -1);
    CHECK(std::isinf(level.prior_weight()));
    DOUBLES_EQUAL(0.2, level.estimate("a", 0.2), 0);
}

TEST(CredibilityLevel, MoreObservationsOfAKeyWeighMore)
{
    CredibilityLevel level;
    level.observe("a", 0, 1.5);
    level.observe("a", 0, 2.5);
    level.observe("b", 0, -1.5);
    level.observe("b", 0, -2.5);
    level.observe("c", 0, 2);
    const double k = level.prior_weight();
    CHECK(k > 0 && !std::isinf(k));
    // c's one observation and a's two have the same mean, 2.
    const double one = level.estimate("c", 0), two = level.estimate("a", 0);
    DOUBLES_EQUAL(2 * 1 / (1 + k), one, 1e-12);
    DOUBLES_EQUAL(2 * 2 / (2 + k), two, 1e-12);
    CHECK(two > one);
}

TEST(CredibilityLevel, ADroppedKeyStillTellsHowFarTheLevelTrustsItsKeys)
{
    // The two keys of the test above (σ²/τ² = 2/3), in a level that keeps
    // one key (up to two at a time): a's mean is dropped when c comes and
    // b's when d comes, but their observations still set the weight any
    // key's mean gets.
    CredibilityLevel level(1);
    level.observe("a", 0.5, 1.5);
    level.observe("a", 0.5, 3.5);
    level.observe("b", 0.5, -0.5);
    level.observe("b", 0.5, -2.5);
    DOUBLES_EQUAL(2.0 / 3.0, level.prior_weight(), 1e-12);
    level.observe("c", 0.5, 0.5); // offset 0: adds a key and an observation, nothing to the sums
    level.observe("d", 0.5, 0.5);
    CHECK_EQUAL(2u, level.keys());
    DOUBLES_EQUAL(0.5, level.estimate("a", 0.5), 0);
    DOUBLES_EQUAL(0.5, level.estimate("b", 0.5), 0);
    // Σ n·mean² = 8 + 8, four keys, σ² = 2: τ² = (16 − 4·2) / 6, k = 2 / (8/6) = 1.5.
    DOUBLES_EQUAL(1.5, level.prior_weight(), 1e-12);
}

TEST(CredibilityLevel, AKeysRememberedPlaceEstimatesAsFindingItAgain)
{
    // A level that keeps one key (up to two): keys come, go and come back,
    // and a place remembered for each key answers as a fresh lookup does.
    CredibilityLevel level(1);
    const char* keys[] = {"a", "b", "c"};
    CredibilityLevel::Place places[3];
    const double values[] = {1.5, 3.5, -0.5, -2.5, 0.5, 2.0, 4.0, -1.0};
    for (int step = 0; step < 40; ++step) {
        for (int k = 0; k < 3; ++k)
            DOUBLES_EQUAL(level.estimate(keys[k], 0.5), level.estimate(keys[k], 0.5, places[k]), 0);
        level.observe(keys[(step * 7) % 3 == 0 ? 0 : step % 3], 0.5, values[step % 8]);
    }
}

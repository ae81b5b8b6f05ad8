#include "provider/http/token_bucket.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(TokenBucket){};

TEST(TokenBucket, AFullBucketLetsTheBurstGoAtOnceThenLendsAtTheRefillRate)
{
    TokenBucket bucket({2, 3}, 100);
    for (int i = 0; i < 3; ++i)
        DOUBLES_EQUAL(0, bucket.reserve(100), 1e-9);
    // Each later caller waits for the token after the one before it.
    DOUBLES_EQUAL(0.5, bucket.reserve(100), 1e-9);
    DOUBLES_EQUAL(1.0, bucket.reserve(100), 1e-9);
    DOUBLES_EQUAL(1.5, bucket.reserve(100), 1e-9);
    DOUBLES_EQUAL(-3, bucket.tokens(100), 1e-9);
}

TEST(TokenBucket, RefillsWithTimeButNeverAboveTheBurst)
{
    TokenBucket bucket({2, 3}, 0);
    for (int i = 0; i < 3; ++i)
        bucket.reserve(0);
    DOUBLES_EQUAL(1, bucket.tokens(0.5), 1e-9);
    DOUBLES_EQUAL(0, bucket.reserve(0.5), 1e-9);
    DOUBLES_EQUAL(3, bucket.tokens(60), 1e-9);
}

TEST(TokenBucket, LentTokensArePaidBackBeforeNewCallersGo)
{
    TokenBucket bucket({1, 1}, 0);
    bucket.reserve(0);
    DOUBLES_EQUAL(1, bucket.reserve(0), 1e-9);
    DOUBLES_EQUAL(2, bucket.reserve(0), 1e-9);
    // One second later one lent token is paid back; the next caller queues
    // behind the remaining one.
    DOUBLES_EQUAL(2, bucket.reserve(1), 1e-9);
}

TEST(TokenBucket, DrainHoldsEveryCallerForThePause)
{
    TokenBucket bucket({4, 100}, 0);
    bucket.drain(0, 2);
    DOUBLES_EQUAL(2.25, bucket.reserve(0), 1e-9);
    // A drain shorter than the queue already waiting changes nothing.
    bucket.drain(0, 1);
    DOUBLES_EQUAL(2.5, bucket.reserve(0), 1e-9);
}

TEST(TokenBucket, AClockSteppingBackTakesNoTokens)
{
    TokenBucket bucket({1, 2}, 10);
    bucket.reserve(10);
    DOUBLES_EQUAL(1, bucket.tokens(5), 1e-9);
    DOUBLES_EQUAL(2, bucket.tokens(11), 1e-9);
}

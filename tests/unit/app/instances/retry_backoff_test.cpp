#include "app/instances/retry_backoff.hpp"

#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

// Hands out the numbers a test chose, in order.
class ScriptedRandom final : public RandomSource {
public:
    explicit ScriptedRandom(std::vector<double> values) : values_(std::move(values)) {}
    double uniform() override { return values_.at(next_++); }

private:
    std::vector<double> values_;
    std::size_t next_ = 0;
};

ProviderError error(ProviderErrorKind kind) { return {kind, "x", 0}; }

} // namespace

TEST_GROUP(RetryBackoff){};

TEST(RetryBackoff, OnlyThrottledAndTransientErrorsAreRetried)
{
    CHECK(retryable(ProviderErrorKind::Throttled));
    CHECK(retryable(ProviderErrorKind::Transient));
    CHECK_FALSE(retryable(ProviderErrorKind::Capacity));
    CHECK_FALSE(retryable(ProviderErrorKind::Quota));
    CHECK_FALSE(retryable(ProviderErrorKind::Auth));
    CHECK_FALSE(retryable(ProviderErrorKind::Invalid));
    CHECK_FALSE(retryable(ProviderErrorKind::None));
}

TEST(RetryBackoff, AttemptsAreBoundedByTheSettings)
{
    ScriptedRandom random({});
    RetryBackoff b(RetrySettings{3, 1, 60}, random);
    CHECK(b.should_retry(error(ProviderErrorKind::Throttled), 1));
    CHECK(b.should_retry(error(ProviderErrorKind::Transient), 2));
    CHECK_FALSE(b.should_retry(error(ProviderErrorKind::Throttled), 3));
    CHECK_FALSE(b.should_retry(error(ProviderErrorKind::Capacity), 1));
    RetryBackoff once(RetrySettings{1, 1, 60}, random);
    CHECK_FALSE(once.should_retry(error(ProviderErrorKind::Throttled), 1));
}

TEST(RetryBackoff, CeilingDoublesPerAttemptUpToTheMaximum)
{
    // uniform() = 1 - tiny shows the ceiling; the jitter scales it.
    const double top = 0.999999;
    ScriptedRandom random({top, top, top, top, top, top});
    RetryBackoff b(RetrySettings{10, 2, 20}, random);
    DOUBLES_EQUAL(2, b.delay(1, 0), 1e-4);
    DOUBLES_EQUAL(4, b.delay(2, 0), 1e-4);
    DOUBLES_EQUAL(8, b.delay(3, 0), 1e-4);
    DOUBLES_EQUAL(16, b.delay(4, 0), 1e-4);
    DOUBLES_EQUAL(20, b.delay(5, 0), 1e-4);
    DOUBLES_EQUAL(20, b.delay(60, 0), 1e-4);
}

TEST(RetryBackoff, FullJitterSpreadsTheWaitOverZeroToTheCeiling)
{
    ScriptedRandom random({0.0, 0.25, 0.5});
    RetryBackoff b(RetrySettings{10, 4, 60}, random);
    DOUBLES_EQUAL(0, b.delay(3, 0), 1e-9);   // ceiling 16
    DOUBLES_EQUAL(4, b.delay(3, 0), 1e-9);
    DOUBLES_EQUAL(8, b.delay(3, 0), 1e-9);
}

TEST(RetryBackoff, RetryAfterIsAFloor)
{
    ScriptedRandom random({0.1, 0.9});
    RetryBackoff b(RetrySettings{10, 1, 60}, random);
    DOUBLES_EQUAL(30, b.delay(1, 30), 1e-9);   // jitter gave 0.1 s; the provider asked for 30
    DOUBLES_EQUAL(14.4, b.delay(5, 2), 1e-9);  // ceiling 16 * 0.9 beats a 2 s hint
}

TEST(RetryBackoff, SeededRandomIsReproducibleAndInRange)
{
    SeededRandom a(42), b(42);
    for (int i = 0; i < 100; ++i) {
        double x = a.uniform();
        DOUBLES_EQUAL(x, b.uniform(), 0);
        CHECK(x >= 0 && x < 1);
    }
}

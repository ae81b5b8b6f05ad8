#include "sim/reference/bucket_prices.hpp"

#include <algorithm>
#include <random>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

// Prices {p0, p1, ...} on buckets of `width` s.
BucketPrices prices_of(const std::vector<double>& price, Seconds width)
{
    BucketPrices p(price.size(), width);
    p.step(price, 1);
    return p;
}

// ∫ of the prices over [from, from + length), one second at a time.
double integral_by_seconds(const std::vector<double>& price, Seconds width, Time from, Seconds length)
{
    double sum = 0;
    for (Time t = from; t < from + length; t += 1) {
        const auto k = std::size_t(t / width);
        sum += k < price.size() ? price[k] : 0;
    }
    return sum;
}

} // namespace

TEST_GROUP(BucketPrices){};

TEST(BucketPrices, IntegratesOverBucketsAndNothingPastTheGrid)
{
    const std::vector<double> price = {1, 0, 5, 2};
    const BucketPrices p = prices_of(price, 10);
    DOUBLES_EQUAL(80, p.total(), 1e-12);
    for (Time from : {0.0, 3.0, 10.0, 17.0, 35.0, 41.0})
        for (Seconds length : {0.0, 1.0, 7.0, 10.0, 23.0, 50.0})
            DOUBLES_EQUAL(integral_by_seconds(price, 10, from, length), p.over(from, length), 1e-9);
}

TEST(BucketPrices, UsageIsWhatThePlacementsOverlapOfEachBucketLessCapacity)
{
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> start(0, 120), length(0, 60);
    BucketUsage use(10, 10);
    std::vector<std::pair<Time, Seconds>> placed;
    for (int i = 0; i < 50; ++i) {
        placed.emplace_back(start(rng), length(rng));
        use.add(placed.back().first, placed.back().second, 2);
    }
    std::vector<double> excess;
    use.excess(3, excess);
    LONGS_EQUAL(10, excess.size());
    for (std::size_t k = 0; k < excess.size(); ++k) {
        double overlap = 0;
        for (const auto& [from, span] : placed)
            overlap += std::max(0.0, std::min(from + span, 10.0 * double(k + 1)) - std::max(from, 10.0 * double(k)));
        DOUBLES_EQUAL(2 * overlap - 3 * 10, excess[k], 1e-9);
    }
}

TEST(BucketPrices, FindsACheapestStartThatBeginsAtABucketEdge)
{
    // Dear, free, dear, then free past the grid: a 150-s job released at
    // 0 starts cheapest at 300 s (0.3 of waiting), on no bucket end.
    Placement best;
    improve_placement(best, prices_of({1, 0, 1}, 100), 0, 150, 0.001, 0, false);
    DOUBLES_EQUAL(0.3, best.cost, 1e-12);
    DOUBLES_EQUAL(300, best.start, 1e-12);
}

TEST(BucketPrices, FindsACheapestStartThatEndsAtABucketEdge)
{
    // 1, 0, 5: the 150-s job should end where the dear bucket begins, 200 s:
    // 50 of price and 25 of waiting from 50 s, on no bucket start.
    Placement best;
    improve_placement(best, prices_of({1, 0, 5}, 100), 0, 150, 0.5, 0, true);
    DOUBLES_EQUAL(75, best.cost, 1e-12);
    DOUBLES_EQUAL(50, best.start, 1e-12);
    CHECK(best.cloud);
}

TEST(BucketPrices, CheapestStartMatchesADenseScan)
{
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> price(0, 3), release(0, 400), length(0, 300), fixed(0, 50);
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<double> p(8);
        for (auto& x : p)
            x = trial % 3 == 0 ? std::max(0.0, price(rng) - 1.5) : price(rng);
        const BucketPrices prices = prices_of(p, 60);
        const Time r = release(rng);
        const Seconds len = length(rng), cost_fixed = fixed(rng);
        const double wait = 0.05;
        Placement best;
        improve_placement(best, prices, r, len, wait, cost_fixed, false);
        DOUBLES_EQUAL(wait * (best.start - r) + cost_fixed + prices.over(best.start, len), best.cost, 1e-9);
        CHECK(best.start >= r);
        double scanned = best.cost + 1;
        for (Time s = r; s <= r + 1000; s += 0.25)
            scanned = std::min(scanned, wait * (s - r) + cost_fixed + prices.over(s, len));
        CHECK(best.cost <= scanned + 1e-9);
    }
}

TEST(BucketPrices, KeepsABetterPlacementItCannotBeat)
{
    Placement best{1.0, 7, true};
    improve_placement(best, prices_of({2, 2}, 10), 0, 10, 1, 0.5, false);
    DOUBLES_EQUAL(1.0, best.cost, 1e-12);
    CHECK(best.cloud);
}

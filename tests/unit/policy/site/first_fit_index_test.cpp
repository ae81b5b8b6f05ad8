#include "policy/site/first_fit_index.hpp"

#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(FirstFitIndex){};

TEST(FirstFitIndex, FindsTheFirstFittingEntryAtOrAfterAPosition)
{
    FirstFitIndex idx({8, 4, 16, 2, 4});
    LONGS_EQUAL(1, idx.find(0, 4));
    LONGS_EQUAL(0, idx.find(0, 8));
    LONGS_EQUAL(3, idx.find(2, 3));
    LONGS_EQUAL(4, idx.find(4, 100));
    CHECK(idx.find(0, 1) == FirstFitIndex::kNone);
    CHECK(idx.find(5, 100) == FirstFitIndex::kNone);
}

TEST(FirstFitIndex, ErasedEntriesAreSkipped)
{
    FirstFitIndex idx({4, 4, 4});
    idx.erase(0);
    LONGS_EQUAL(1, idx.find(0, 4));
    idx.erase(1);
    idx.erase(2);
    CHECK(idx.find(0, 100) == FirstFitIndex::kNone);
}

TEST(FirstFitIndex, MatchesALinearScanOnAnOddSizedQueue)
{
    std::vector<std::uint64_t> sizes;
    for (std::uint64_t i = 0; i < 37; ++i)
        sizes.push_back((i * 7919) % 13 + 1);
    FirstFitIndex idx(sizes);
    std::vector<bool> gone(sizes.size(), false);
    for (std::uint64_t limit = 1; limit <= 13; limit += 3)
        for (std::size_t from = 0; from < sizes.size(); from += 5) {
            std::size_t expect = FirstFitIndex::kNone;
            for (std::size_t i = from; i < sizes.size(); ++i)
                if (!gone[i] && sizes[i] <= limit) {
                    expect = i;
                    break;
                }
            CHECK(idx.find(from, limit) == expect);
            if (expect != FirstFitIndex::kNone) {
                idx.erase(expect);
                gone[expect] = true;
            }
        }
}

TEST(FirstFitIndex, EmptyQueueFindsNothing)
{
    FirstFitIndex idx({});
    CHECK(idx.find(0, 100) == FirstFitIndex::kNone);
}

TEST(FirstFitIndex, MatchesALinearScanFromEveryPositionAndLimitAsEntriesGo)
{
    std::vector<std::uint64_t> sizes;
    for (std::uint64_t i = 0; i < 100; ++i)
        sizes.push_back((i * 2654435761u) % 17 + 1);
    FirstFitIndex idx(sizes);
    std::vector<bool> gone(sizes.size(), false);
    for (std::size_t round = 0; round < sizes.size(); ++round) {
        for (std::uint64_t limit = 0; limit <= 18; ++limit)
            for (std::size_t from = 0; from <= sizes.size(); ++from) {
                std::size_t expect = FirstFitIndex::kNone;
                for (std::size_t i = from; i < sizes.size(); ++i)
                    if (!gone[i] && sizes[i] <= limit) {
                        expect = i;
                        break;
                    }
                CHECK(idx.find(from, limit) == expect);
            }
        const std::size_t victim = (round * 37) % sizes.size();
        if (!gone[victim]) {
            idx.erase(victim);
            gone[victim] = true;
        }
    }
}

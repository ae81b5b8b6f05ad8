#include "policy/runtime/recent_keys.hpp"

#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(RecentKeys){};

TEST(RecentKeys, ANewKeyIsValueInitializedAndKept)
{
    RecentKeys<int> keys(2);
    CHECK(keys.find("a") == nullptr);
    keys.write("a") = 7;
    CHECK_EQUAL(0, keys.write("b"));
    CHECK_EQUAL(7, *keys.find("a"));
    CHECK_EQUAL(2u, keys.size());
}

TEST(RecentKeys, AtTwiceItsCapacityTheLeastRecentlyWrittenHalfIsDropped)
{
    RecentKeys<int> keys(2);
    keys.write("a") = 1;
    keys.write("b") = 2;
    keys.write("c") = 3;
    keys.write("d") = 4;
    keys.write("a") = 10; // a is written after b, c and d now
    CHECK_EQUAL(4u, keys.size());
    keys.write("e") = 5; // 4 = 2 x capacity held: keep the 2 written last (d, a), then add e
    CHECK_EQUAL(3u, keys.size());
    CHECK(keys.find("b") == nullptr);
    CHECK(keys.find("c") == nullptr);
    CHECK_EQUAL(4, *keys.find("d"));
    CHECK_EQUAL(10, *keys.find("a"));
    CHECK_EQUAL(5, *keys.find("e"));
}

TEST(RecentKeys, ReadingAKeyDoesNotKeepIt)
{
    RecentKeys<int> keys(1);
    keys.write("old") = 1;
    keys.write("new") = 2;
    CHECK(keys.find("old") != nullptr);
    keys.write("newest") = 3;
    CHECK(keys.find("old") == nullptr);
    CHECK_EQUAL(2, *keys.find("new"));
}

TEST(RecentKeys, ADroppedKeyComesBackFresh)
{
    RecentKeys<int> keys(1);
    keys.write("a") = 9;
    keys.write("b");
    keys.write("c"); // drops a
    CHECK_EQUAL(0, keys.write("a"));
}

TEST(RecentKeys, RewritingAKeptKeyNeverDrops)
{
    RecentKeys<int> keys(1);
    keys.write("a");
    keys.write("b");
    for (int i = 0; i < 10; ++i)
        keys.write(i % 2 ? "a" : "b") += 1;
    CHECK_EQUAL(2u, keys.size());
}

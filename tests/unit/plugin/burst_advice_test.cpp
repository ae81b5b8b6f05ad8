#include "../../../plugin/burst_advice.h"

#include <cstring>
#include <string>

#include <CppUTest/TestHarness.h>

namespace {
std::string advice(const std::string& threads, const std::string& cluster = "c1")
{
    return R"({"v":1,"type":"advice","cluster":")" + cluster + R"(","seq":3,"time":1700000000,"threads":)" +
           threads + "}";
}
}  // namespace

TEST_GROUP(BurstAdvice)
{
    burst_advice a{};
    char err[256] = "";
    burst_advice_cache cache;
    void setup() override { burst_advice_cache_init(&cache); }
    void teardown() override
    {
        burst_advice_free(&a);
        burst_advice_cache_clear(&cache);
        pthread_mutex_destroy(&cache.mutex);
    }
    int parse(const std::string& line)
    {
        return burst_advice_parse(line.data(), line.size(), "c1", &a, err, sizeof(err));
    }
};

TEST(BurstAdvice, AcceptsAValidMessage)
{
    LONGS_EQUAL(0, parse(advice(R"({"00000000000000ff":4,"0000000000000001":16})")));
    LONGS_EQUAL(2, a.count);
    CHECK(a.entries[0].category == 1);
    LONGS_EQUAL(16, a.entries[0].threads);
    CHECK(a.entries[1].category == 0xff);
}

TEST(BurstAdvice, RejectsWholeMessageOnOneBadEntry)
{
    LONGS_EQUAL(-1, parse(advice(R"({"00000000000000ff":4,"0000000000000001":0})")));
    STRCMP_CONTAINS("threads.0000000000000001: expected integer 1..1024", err);
    LONGS_EQUAL(0, a.count);
    LONGS_EQUAL(-1, parse(advice(R"({"00000000000000ff":1025})")));
    LONGS_EQUAL(-1, parse(advice(R"({"00000000000000ff":"4"})")));
    LONGS_EQUAL(-1, parse(advice(R"({"00000000000000FF":4})")));
    STRCMP_CONTAINS("16 lowercase hex", err);
    LONGS_EQUAL(-1, parse(advice(R"({"ff":4})")));
    LONGS_EQUAL(-1, parse(advice(R"({"00000000000000ff":4.0})")));
}

TEST(BurstAdvice, RejectsBadEnvelope)
{
    LONGS_EQUAL(-1, parse("not json"));
    STRCMP_CONTAINS("not JSON", err);
    LONGS_EQUAL(-1, parse("[1]"));
    LONGS_EQUAL(-1, parse(advice("[]")));
    STRCMP_CONTAINS("threads: expected object", err);
    LONGS_EQUAL(-1, parse(advice("{}", "other")));
    STRCMP_CONTAINS("cluster", err);
    LONGS_EQUAL(-1, parse(R"({"v":2,"type":"advice","cluster":"c1","seq":1,"time":1,"threads":{}})"));
    LONGS_EQUAL(-1, parse(R"({"v":1,"type":"snapshot","cluster":"c1","seq":1,"time":1,"threads":{}})"));
    LONGS_EQUAL(-1, parse(R"({"v":1,"type":"advice","cluster":"c1","time":1,"threads":{}})"));
    STRCMP_CONTAINS("seq: missing", err);
    LONGS_EQUAL(-1, parse(advice(R"({"00000000000000ff":4,"00000000000000ff":5})")));
}

TEST(BurstAdvice, CacheMergesNewerWinsAndLooksUp)
{
    LONGS_EQUAL(0, parse(advice(R"({"0000000000000002":4,"0000000000000001":2})")));
    LONGS_EQUAL(0, burst_advice_cache_merge(&cache, &a));
    burst_advice_free(&a);
    LONGS_EQUAL(0, parse(advice(R"({"0000000000000002":8,"0000000000000003":1})")));
    LONGS_EQUAL(0, burst_advice_cache_merge(&cache, &a));
    LONGS_EQUAL(2, burst_advice_cache_lookup(&cache, 1));
    LONGS_EQUAL(8, burst_advice_cache_lookup(&cache, 2));
    LONGS_EQUAL(1, burst_advice_cache_lookup(&cache, 3));
    LONGS_EQUAL(0, burst_advice_cache_lookup(&cache, 4));
    LONGS_EQUAL(3, cache.table.count);
}

TEST(BurstAdvice, EmptyCacheHasNoAdvice)
{
    LONGS_EQUAL(0, burst_advice_cache_lookup(&cache, 42));
}

TEST(BurstAdvice, AWholeTableReplacesTheCacheSoWithdrawnAdviceIsDropped)
{
    LONGS_EQUAL(0, parse(advice(R"({"0000000000000002":4,"0000000000000001":2})")));
    CHECK_FALSE(a.replace);
    LONGS_EQUAL(0, burst_advice_cache_merge(&cache, &a));
    burst_advice_free(&a);
    const std::string whole =
        R"({"v":1,"type":"advice","cluster":"c1","seq":4,"time":1,"replace":true,"threads":{"0000000000000003":8}})";
    LONGS_EQUAL(0, parse(whole));
    CHECK_TRUE(a.replace);
    burst_advice_cache_replace(&cache, &a);
    LONGS_EQUAL(0, a.count);
    LONGS_EQUAL(0, burst_advice_cache_lookup(&cache, 1));
    LONGS_EQUAL(0, burst_advice_cache_lookup(&cache, 2));
    LONGS_EQUAL(8, burst_advice_cache_lookup(&cache, 3));
    LONGS_EQUAL(0, parse(R"({"v":1,"type":"advice","cluster":"c1","seq":5,"time":1,"replace":true,"threads":{}})"));
    burst_advice_cache_replace(&cache, &a);
    LONGS_EQUAL(0, burst_advice_cache_lookup(&cache, 3));
    LONGS_EQUAL(-1, parse(R"({"v":1,"type":"advice","cluster":"c1","seq":6,"time":1,"replace":1,"threads":{}})"));
    STRCMP_CONTAINS("replace: expected true or false", err);
}

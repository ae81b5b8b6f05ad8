#include "bench_args.hpp"
#include "decide_stats.hpp"

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst::bench;

TEST_GROUP(BurstBench){};

TEST(BurstBench, CallsTheTailOfFewSamplesTheMax)
{
    // 30 samples (the bench's 100k calls): their 99th percentile is their max.
    std::vector<double> few;
    for (int i = 1; i <= 30; ++i)
        few.push_back(i);
    const TailTime t = tail_of(few);
    STRCMP_EQUAL("max", t.label.c_str());
    DOUBLES_EQUAL(30, t.ms, 0);

    std::vector<double> many;
    for (int i = 1; i <= 200; ++i)
        many.push_back(i);
    const TailTime p = tail_of(many);
    STRCMP_EQUAL("p99", p.label.c_str());
    DOUBLES_EQUAL(198, p.ms, 0); // nearest rank: ceil(0.99 * 200)
}

TEST(BurstBench, GrowthIsTheRatioOfMediansBesideNLogN)
{
    const std::vector<double> g = growth_ratios({0.5, 5, 0, 7});
    LONGS_EQUAL(3, g.size());
    DOUBLES_EQUAL(10, g[0], 1e-12);
    DOUBLES_EQUAL(0, g[1], 1e-12);
    CHECK(std::isnan(g[2])); // from a median below the clock's resolution
    const std::vector<double> n = nlogn_ratios({1000, 10000, 100000});
    DOUBLES_EQUAL(10.0 * 4 / 3, n[0], 1e-9);
    DOUBLES_EQUAL(12.5, n[1], 1e-9);
}

TEST(BurstBench, HelpIsNoTraceDirectory)
{
    CHECK(parse_bench_args({"--help"}).help);
    CHECK(parse_bench_args({"-h"}).help);
    const BenchArgs unknown = parse_bench_args({"--frobnicate"});
    STRCMP_EQUAL("unknown option '--frobnicate'", unknown.error.c_str());

    const BenchArgs b = parse_bench_args({"--sizes", "100,2000", "/traces", "decide"});
    CHECK(b.error.empty());
    STRCMP_EQUAL("/traces", b.trace_dir.c_str());
    LONGS_EQUAL(2, b.sizes.size());
    LONGS_EQUAL(2000, b.sizes[1]);
    CHECK(b.wants("decide"));
    CHECK_FALSE(b.wants("sim"));
    CHECK(parse_bench_args({}).wants("sim"));

    CHECK_FALSE(parse_bench_args({"--sizes", "2000,100"}).error.empty());
    CHECK_FALSE(parse_bench_args({"--sizes"}).error.empty());
    CHECK_FALSE(parse_bench_args({"/traces", "decdie"}).error.empty());
}

// Without a TRACE_DIR the bench reads the repository's own traces, wherever it
// is built.
TEST(BurstBench, DefaultTraceDirIsTheSourceTreesTraces)
{
    const std::string dir = parse_bench_args({"--sizes", "100"}).trace_dir;
    const std::string tail = "/tests/data/traces/swf";
    CHECK_TEXT(dir.size() > tail.size() && dir.compare(dir.size() - tail.size(), tail.size(), tail) == 0, dir.c_str());
    CHECK_TEXT(std::filesystem::is_regular_file(dir + "/KTH-SP2-1996-2.1-cln.swf"), dir.c_str());
}

TEST(BurstBench, PoliciesAreCheckedAgainstTheKnownRows)
{
    const BenchArgs b = parse_bench_args({"--policies", "always,pfa(deps)"});
    CHECK(b.error.empty());
    LONGS_EQUAL(2, b.policies.size());
    STRCMP_EQUAL("pfa(deps)", b.policies[1].c_str());
    STRCMP_EQUAL("", b.unknown_policy({"always", "pfa", "pfa(deps)"}).c_str());
    STRCMP_EQUAL("pfa(deps)", b.unknown_policy({"always", "pfa"}).c_str());
    CHECK(parse_bench_args({}).policies.empty());
    CHECK_FALSE(parse_bench_args({}).cold);
    CHECK(parse_bench_args({"--cold", "/traces"}).cold);

    CHECK_FALSE(parse_bench_args({"--policies"}).error.empty());
    CHECK_FALSE(parse_bench_args({"--policies", "always,,pfa"}).error.empty());
    CHECK_FALSE(parse_bench_args({"--policies", ""}).error.empty());
}

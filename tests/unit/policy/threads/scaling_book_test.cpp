#include "policy/threads/scaling_book.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

JobEnd end_of(const std::string& category, std::uint32_t threads, Seconds elapsed, const std::string& state = "COMPLETED",
              int exit_code = 0)
{
    JobEnd e;
    e.category = category;
    e.cpus_per_task = threads;
    e.cpus = threads;
    e.elapsed = elapsed;
    e.state = state;
    e.exit_code = exit_code;
    return e;
}

// c = 0.5, E = 800 s
Seconds t_of(std::uint32_t threads) { return 800 * (0.5 / threads + 0.5); }

} // namespace

TEST_GROUP(ScalingBook){};

TEST(ScalingBook, LearnsEachCategoryFromItsCompletedRuns)
{
    ScalingBook book;
    for (std::uint32_t t : {1u, 2u, 4u, 8u, 1u, 2u, 4u, 8u}) {
        CHECK(book.observe(end_of("aaaa", t, t_of(t))));
        CHECK(book.observe(end_of("bbbb", 4, 300)));
    }
    const ScalingFit a = book.fit("aaaa");
    CHECK(a.known);
    DOUBLES_EQUAL(0.5, a.c, 1e-9);
    DOUBLES_EQUAL(800, a.b, 1e-6);
    CHECK(!book.fit("bbbb").known); // always 4 threads: its scaling is unseen
    CHECK(!book.fit("cccc").known);
    LONGS_EQUAL(2, book.summary().categories);
    LONGS_EQUAL(1, book.summary().known);
}

TEST(ScalingBook, RunsThatDidNotCompleteAreNotLearnedFrom)
{
    ScalingBook book;
    CHECK(!book.observe(end_of("aaaa", 4, 10, "FAILED", 1)));
    CHECK(!book.observe(end_of("aaaa", 4, 3600, "TIMEOUT")));
    CHECK(!book.observe(end_of("aaaa", 4, 120, "CANCELLED")));
    CHECK(!book.observe(end_of("aaaa", 4, 120, "PREEMPTED")));
    CHECK(!book.observe(end_of("aaaa", 4, 120, "COMPLETED", 2)));
    CHECK(!book.observe(end_of("", 4, 120)));
    CHECK(book.observe(end_of("aaaa", 4, 120, ""))); // an older plugin: no state, exit code 0
    LONGS_EQUAL(1, book.summary().categories);
    DOUBLES_EQUAL(1, book.fit("aaaa").runs, 1e-9);
}

TEST(ScalingBook, WhatWasLearnedIsKeptAsTextAndTakenBack)
{
    ScalingBook book;
    for (std::uint32_t t : {1u, 2u, 4u, 8u, 1u, 2u, 4u, 8u})
        book.observe(end_of("aaaa", t, t_of(t)));
    const auto kept = book.take_changed();
    LONGS_EQUAL(1, kept.size());
    CHECK(book.take_changed().empty()); // nothing learned since
    ScalingBook restarted;
    CHECK(restarted.restore(kept).empty());
    const ScalingFit before = book.fit("aaaa"), after = restarted.fit("aaaa");
    CHECK(after.known);
    DOUBLES_EQUAL(before.c, after.c, 0);
    DOUBLES_EQUAL(before.runs, after.runs, 0);
    LONGS_EQUAL(before.thread_counts, after.thread_counts);
}

TEST(ScalingBook, AKeptLineItCannotReadIsNamedAndSkipped)
{
    ScalingBook book;
    const auto errors = book.restore({{"aaaa", "scaling1 1 2 3"}, {"bbbb", "other 1"}});
    LONGS_EQUAL(2, errors.size());
    STRCMP_CONTAINS("category aaaa: expected 10 + 4 + 3 numbers", errors[0].c_str());
    STRCMP_CONTAINS("category bbbb: expected a line starting with scaling1, got 'other'", errors[1].c_str());
    LONGS_EQUAL(0, book.summary().categories);
}

TEST(ScalingBook, AKeptRowWithoutACategoryIsRefused)
{
    ScalingBook book;
    for (std::uint32_t t : {1u, 2u, 4u, 8u})
        book.observe(end_of("aaaa", t, t_of(t)));
    const auto kept = book.take_changed();
    const auto errors = book.restore({{"", kept.at("aaaa")}});
    LONGS_EQUAL(1, errors.size());
    STRCMP_CONTAINS("a row without a category", errors[0].c_str());
    CHECK(!book.fit(JobCategory()).known);
}

// Each category's run is learned into its own entry, whatever order the
// categories arrive in, and one learned from saves once per take_changed.
TEST(ScalingBook, CategoriesLearnApartAndSaveOnce)
{
    ScalingBook book;
    for (int round = 0; round < 2; ++round)
        for (std::uint32_t t : {1u, 2u, 4u, 8u}) {
            book.observe(end_of("sb-serial", t, 10));
            book.observe(end_of("sb-parallel", t, t_of(t)));
        }
    CHECK(book.fit("sb-parallel").known);
    CHECK(book.fit("sb-serial").c < 0.05);
    DOUBLES_EQUAL(0.5, book.fit("sb-parallel").c, 0.01); // t_of's c
    CHECK(!book.fit("sb-never-run").known);
    LONGS_EQUAL(2, book.take_changed().size());
    LONGS_EQUAL(2, book.summary().categories);
}

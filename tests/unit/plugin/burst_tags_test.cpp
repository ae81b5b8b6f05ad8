#include "../../../plugin/burst_tags.h"

#include <cstdlib>
#include <string>

#include <CppUTest/TestHarness.h>

TEST_GROUP(BurstTags)
{
    burst_tags t;
    char err[256];
};

TEST(BurstTags, ParsesModesAndRejectsOthers)
{
    burst_mode m;
    LONGS_EQUAL(0, burst_parse_mode("prefer", &m, err, sizeof(err)));
    LONGS_EQUAL(BURST_MODE_PREFER, m);
    LONGS_EQUAL(-1, burst_parse_mode("always", &m, err, sizeof(err)));
    STRCMP_CONTAINS("expected never, allow or prefer, got \"always\"", err);
}

TEST(BurstTags, ParsesThreads)
{
    int n;
    LONGS_EQUAL(0, burst_parse_threads("auto", &n, err, sizeof(err)));
    LONGS_EQUAL(BURST_THREADS_AUTO, n);
    LONGS_EQUAL(0, burst_parse_threads("16", &n, err, sizeof(err)));
    LONGS_EQUAL(16, n);
    LONGS_EQUAL(-1, burst_parse_threads("0", &n, err, sizeof(err)));
    LONGS_EQUAL(-1, burst_parse_threads("1025", &n, err, sizeof(err)));
    LONGS_EQUAL(-1, burst_parse_threads("4x", &n, err, sizeof(err)));
    LONGS_EQUAL(-1, burst_parse_threads("+4", &n, err, sizeof(err)));
    LONGS_EQUAL(-1, burst_parse_threads("", &n, err, sizeof(err)));
    STRCMP_CONTAINS("threads: expected auto or an integer 1..1024", err);
}

TEST(BurstTags, FindsOurWordsAmongOtherCommentText)
{
    LONGS_EQUAL(0, burst_tags_parse("run 3, burst:never,threads:8 of the sweep", 0, &t, err, sizeof(err)));
    LONGS_EQUAL(BURST_MODE_NEVER, t.mode);
    LONGS_EQUAL(8, t.threads);
    LONGS_EQUAL(0, t.has_category);
}

TEST(BurstTags, NullOrPlainCommentLeavesEverythingUnset)
{
    LONGS_EQUAL(0, burst_tags_parse(nullptr, 0, &t, err, sizeof(err)));
    LONGS_EQUAL(BURST_MODE_UNSET, t.mode);
    LONGS_EQUAL(BURST_THREADS_UNSET, t.threads);
    LONGS_EQUAL(0, burst_tags_parse("bursting: later", 0, &t, err, sizeof(err)));
    LONGS_EQUAL(BURST_MODE_UNSET, t.mode);
}

TEST(BurstTags, RejectsBadValuesAndConflictsAndUserCategories)
{
    LONGS_EQUAL(-1, burst_tags_parse("burst:sometimes", 0, &t, err, sizeof(err)));
    STRCMP_CONTAINS("sometimes", err);
    LONGS_EQUAL(-1, burst_tags_parse("threads:2 threads:4", 0, &t, err, sizeof(err)));
    STRCMP_CONTAINS("twice", err);
    LONGS_EQUAL(0, burst_tags_parse("threads:2 threads:2", 0, &t, err, sizeof(err)));
    LONGS_EQUAL(-1, burst_tags_parse("category:0123456789abcdef", 0, &t, err, sizeof(err)));
    LONGS_EQUAL(-1, burst_tags_parse(("burst:" + std::string(200, 'x')).c_str(), 0, &t, err, sizeof(err)));
}

TEST(BurstTags, AdminCommentRoundTripsAndKeepsForeignWords)
{
    burst_tags in = {BURST_MODE_PREFER, BURST_THREADS_AUTO, 1, 0x00ab00cd00ef0012ULL, "", ""};
    char* text = burst_tags_admin_comment(&in, "site note burst:never category:ffffffffffffffff x");
    STRCMP_EQUAL("burst:prefer threads:auto category:00ab00cd00ef0012 site note x", text);
    LONGS_EQUAL(0, burst_tags_parse(text, 1, &t, err, sizeof(err)));
    free(text);
    LONGS_EQUAL(BURST_MODE_PREFER, t.mode);
    LONGS_EQUAL(BURST_THREADS_AUTO, t.threads);
    CHECK(t.category == 0x00ab00cd00ef0012ULL);
}

TEST(BurstTags, UnsetModeIsRecordedAsTheDefaultAllow)
{
    burst_tags in = {BURST_MODE_UNSET, BURST_THREADS_UNSET, 0, 0, "", ""};
    char* text = burst_tags_admin_comment(&in, nullptr);
    STRCMP_EQUAL("burst:allow", text);
    free(text);
}

TEST(BurstTags, WhyIsBurstdsWordInAdminCommentAndTheUsersInAComment)
{
    LONGS_EQUAL(0, burst_tags_parse("burst:allow why:cloud:aws", 1, &t, err, sizeof(err)));
    STRCMP_EQUAL("cloud:aws", t.why);
    LONGS_EQUAL(0, burst_tags_parse("why:me burst:prefer", 0, &t, err, sizeof(err)));
    STRCMP_EQUAL("", t.why);
    LONGS_EQUAL(BURST_MODE_PREFER, t.mode);
    LONGS_EQUAL(-1, burst_tags_parse("why:a why:b", 1, &t, err, sizeof(err)));
    STRCMP_CONTAINS("twice", err);
    LONGS_EQUAL(-1, burst_tags_parse(("why:" + std::string(BURST_WHY_MAX + 1, 'x')).c_str(), 1, &t, err,
                                     sizeof(err)));
    STRCMP_CONTAINS("at most 48", err);
    LONGS_EQUAL(0, burst_tags_parse(("why:" + std::string(BURST_WHY_MAX, 'x')).c_str(), 1, &t, err, sizeof(err)));
}

TEST(BurstTags, AReasonReplacesTheLastOneAndKeepsEveryOtherWord)
{
    burst_tags in = {BURST_MODE_ALLOW, BURST_THREADS_UNSET, 1, 0x1ULL, "budget", ""};
    char* text = burst_tags_admin_comment(&in, "burst:allow category:0000000000000001 why:cloud:aws nhc:ok");
    STRCMP_EQUAL("burst:allow category:0000000000000001 why:budget nhc:ok", text);
    free(text);
    in.why[0] = '\0';
    text = burst_tags_admin_comment(&in, "burst:allow why:budget nhc:ok");
    STRCMP_EQUAL("burst:allow category:0000000000000001 nhc:ok", text);
    free(text);
}

TEST(BurstTags, OnlyAnUpdateOfWhyWordsAloneIsBurstdsReason)
{
    CHECK(burst_tags_only_why("why:budget"));
    CHECK(burst_tags_only_why(" why: "));
    CHECK(!burst_tags_only_why("why:budget nhc:ok"));
    CHECK(!burst_tags_only_why(""));
    CHECK(!burst_tags_only_why(nullptr));
}

TEST(BurstTags, ASizeIsAPositiveNumberKeptAsTheUserWroteIt)
{
    double v = 0;
    LONGS_EQUAL(0, burst_parse_size("12.5", &v, err, sizeof(err)));
    DOUBLES_EQUAL(12.5, v, 0);
    LONGS_EQUAL(0, burst_parse_size("007", &v, err, sizeof(err)));
    DOUBLES_EQUAL(7, v, 0);
    for (const char* bad : {"0", "0.0", "-1", "+1", "1e3", "0x10", "inf", "nan", "1.", ".5", "1.2.3", "12GB", "",
                            "2000000000000000", "1234567890123456789012345"}) {
        LONGS_EQUAL(-1, burst_parse_size(bad, &v, err, sizeof(err)));
        STRCMP_CONTAINS("size: expected a positive number such as 12 or 0.5", err);
    }
    LONGS_EQUAL(0, burst_tags_parse("align run, size:30.25 threads:auto", 0, &t, err, sizeof(err)));
    STRCMP_EQUAL("30.25", t.size);
    LONGS_EQUAL(-1, burst_tags_parse("size:3 size:4", 0, &t, err, sizeof(err)));
    STRCMP_CONTAINS("size: given twice", err);
    LONGS_EQUAL(0, burst_tags_parse("size:big size:-1 bag", 0, &t, err, sizeof(err))); // the user's own words
    STRCMP_EQUAL("", t.size);
    LONGS_EQUAL(-1, burst_tags_parse("size:12GB", 0, &t, err, sizeof(err)));
    burst_tags in = {BURST_MODE_ALLOW, BURST_THREADS_AUTO, 1, 0x12, "", "30.25"};
    char* text = burst_tags_admin_comment(&in, "size:1 note");
    STRCMP_EQUAL("burst:allow threads:auto size:30.25 category:0000000000000012 note", text);
    LONGS_EQUAL(0, burst_tags_parse(text, 1, &t, err, sizeof(err)));
    free(text);
    STRCMP_EQUAL("30.25", t.size);
}

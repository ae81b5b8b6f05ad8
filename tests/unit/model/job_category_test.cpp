#include "model/job_category.hpp"

#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(JobCategory){};

TEST(JobCategory, EqualTextsAreOneValueWithOneId)
{
    const JobCategory a("jc-0123456789abcdef");
    const JobCategory b(std::string("jc-0123456789abcdef"));
    CHECK(a == b);
    LONGS_EQUAL(a.id(), b.id());
    CHECK(&a.text() == &b.text());
    STRCMP_EQUAL("jc-0123456789abcdef", a.text().c_str());
    CHECK(a.id() > 0);
    CHECK(a.id() < JobCategory::id_bound());
    std::ostringstream out;
    out << a;
    STRCMP_EQUAL("jc-0123456789abcdef", out.str().c_str());
}

TEST(JobCategory, DistinctTextsHaveDistinctIds)
{
    const JobCategory a("jc-a"), b("jc-b"), a_longer("jc-a ");
    CHECK(a != b);
    CHECK(a.id() != b.id());
    CHECK(a.id() != a_longer.id());
}

TEST(JobCategory, NoCategoryIsIdZeroAndEmpty)
{
    const JobCategory none, empty_text("");
    CHECK(none.empty());
    CHECK(none == empty_text);
    LONGS_EQUAL(0, none.id());
    STRCMP_EQUAL("", none.text().c_str());
    CHECK(!JobCategory("jc-x").empty());
}

// Parsers may intern from several threads at once: every thread must get
// the one entry of each text.
TEST(JobCategory, InterningFromThreadsAgreesOnIds)
{
    constexpr int kThreads = 4, kTexts = 2000;
    std::vector<std::vector<JobCategory>> got(kThreads, std::vector<JobCategory>(kTexts));
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([t, &got] {
            for (int i = 0; i < kTexts; ++i)
                got[t][i] = JobCategory("jc-threaded-" + std::to_string(i));
        });
    for (auto& th : threads)
        th.join();
    std::set<std::uint32_t> ids;
    for (int i = 0; i < kTexts; ++i) {
        ids.insert(got[0][i].id());
        for (int t = 1; t < kThreads; ++t)
            CHECK(got[t][i] == got[0][i]);
    }
    LONGS_EQUAL(kTexts, ids.size());
}

// A site whose job names never repeat has a new category per job: the
// table keeps only the categories something still holds, and gives their
// ids to new ones.
TEST(JobCategory, ACategoryNoLongerHeldIsForgottenAndItsIdReused)
{
    const std::size_t before = JobCategory::held();
    std::uint32_t bound = 0;
    {
        std::vector<JobCategory> jobs;
        for (int i = 0; i < 1000; ++i)
            jobs.emplace_back("jc-once-" + std::to_string(i));
        LONGS_EQUAL(before + 1000, JobCategory::held());
        JobCategory copy = jobs[7];
        jobs.clear();
        LONGS_EQUAL(before + 1, JobCategory::held()); // the copy holds its one
        STRCMP_EQUAL("jc-once-7", copy.text().c_str());
        bound = JobCategory::id_bound();
    }
    LONGS_EQUAL(before, JobCategory::held());
    for (int i = 0; i < 1000; ++i) {
        const JobCategory again("jc-again-" + std::to_string(i));
        CHECK(again.id() < bound);
    }
    LONGS_EQUAL(before, JobCategory::held());
}

// Copies and moves keep the count right whatever the order.
TEST(JobCategory, CopiesAndMovesHoldTheirEntry)
{
    const std::size_t before = JobCategory::held();
    JobCategory a("jc-moved");
    JobCategory b = a, c = std::move(a);
    CHECK(a.empty());
    CHECK(b == c);
    a = b;
    b = JobCategory();
    CHECK(a == c);
    LONGS_EQUAL(before + 1, JobCategory::held());
    a = JobCategory();
    c = JobCategory();
    LONGS_EQUAL(before, JobCategory::held());
}

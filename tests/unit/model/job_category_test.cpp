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

// Parsers intern from several threads at once (burstsim's replays run side
// by side): every thread must get the one id of each text.
TEST(JobCategory, InterningFromThreadsAgreesOnIds)
{
    constexpr int kThreads = 4, kTexts = 2000;
    std::vector<std::vector<std::uint32_t>> ids(kThreads, std::vector<std::uint32_t>(kTexts));
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([t, &ids] {
            for (int i = 0; i < kTexts; ++i)
                ids[t][i] = JobCategory("jc-threaded-" + std::to_string(i)).id();
        });
    for (auto& th : threads)
        th.join();
    for (int t = 1; t < kThreads; ++t)
        CHECK(ids[t] == ids[0]);
    LONGS_EQUAL(kTexts, std::set<std::uint32_t>(ids[0].begin(), ids[0].end()).size());
}

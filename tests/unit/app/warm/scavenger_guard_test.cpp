#include "app/warm/scavenger_guard.hpp"

#include <set>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

const std::set<JobId> kScavengers{7, 8};

ResumeSplit split(const std::vector<std::string>& nodes, const std::map<JobId, std::vector<std::string>>& jobs,
                  int* asked = nullptr)
{
    return split_scavenger_resumes(nodes, jobs, [&](JobId id) {
        if (asked)
            ++*asked;
        return kScavengers.count(id) != 0;
    });
}

} // namespace

TEST_GROUP(ScavengerGuard){};

TEST(ScavengerGuard, ANodeOnlyScavengerJobsWantIsRefused)
{
    ResumeSplit s = split({"c1", "c2"}, {{7, {"c1"}}, {1, {"c2"}}});
    CHECK(s.refuse == std::vector<std::string>{"c1"});
    CHECK(s.launch == std::vector<std::string>{"c2"});
}

TEST(ScavengerGuard, ANodeARealJobWantsTooIsLaunched)
{
    ResumeSplit s = split({"c1", "c2"}, {{7, {"c1", "c2"}}, {1, {"c2"}}, {8, {"c1"}}});
    CHECK(s.refuse == std::vector<std::string>{"c1"});
    CHECK(s.launch == std::vector<std::string>{"c2"});
}

TEST(ScavengerGuard, ANodeNoJobIsListedForIsLaunched)
{
    ResumeSplit s = split({"c1", "c3"}, {{7, {"c1"}}});
    CHECK(s.launch == std::vector<std::string>{"c3"});
}

TEST(ScavengerGuard, AsksSlurmOncePerJob)
{
    int asked = 0;
    split({"c1", "c2", "c3"}, {{7, {"c1", "c2", "c3"}}}, &asked);
    LONGS_EQUAL(1, asked);
}

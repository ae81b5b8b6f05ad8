// burstsim's thread options: --thread-policy (or ThreadPolicy= from
// --config), --auto-threads for a trace without scaling, and the smowton
// scenario's thread allocators.

#include <string>
#include <vector>

#include "burstsim_cli_harness.hpp"

using namespace burst;
using namespace burst::test;

namespace {

// Job 1 fills the 8 cores for 100 s; jobs 2-5 (one category) wait behind it.
const char* const kTrace = "; MaxProcs: 8\n"
                           "1 0 0 100 8 -1 -1 8 100 -1 1 1 1 1 -1 -1 -1 -1\n"
                           "2 1 0 1000 1 -1 -1 1 1000 -1 1 2 1 3 -1 -1 -1 -1\n"
                           "3 2 0 1000 1 -1 -1 1 1000 -1 1 2 1 3 -1 -1 -1 -1\n"
                           "4 3 0 1000 1 -1 -1 1 1000 -1 1 2 1 3 -1 -1 -1 -1\n"
                           "5 4 0 1000 1 -1 -1 1 1000 -1 1 2 1 3 -1 -1 -1 -1\n";

} // namespace

TEST_GROUP(BurstsimThreadsCli){};

TEST(BurstsimThreadsCli, AutoThreadsGivesEachCategoryOneScalingAndReportsTheCountsSet)
{
    TempTrace t(kTrace);
    // A group nearly free to hire makes more threads pay whatever c the draw gave.
    const std::vector<std::string> args{"--trace",        t.path(), "--local-node-cores", "8",
                                        "--group",        "g,cpus=8,price=0.0001,boot=30,max=4",
                                        "--policy",       "never",  "--auto-threads",     "1",
                                        "--thread-policy", "greedy,lambda=1"};
    Run r = invoke(args);
    LONGS_EQUAL(0, r.status);
    CHECK(r.err.find("auto threads: 5 job(s) of 2 categories") != std::string::npos);
    // Jobs 2-5 come after the first cycle's advice: they take it at submission.
    const std::size_t at = r.out.find("thread counts set 0 (at submission ");
    CHECK(at != std::string::npos);
    LONGS_EQUAL(4, std::stoul(r.out.substr(at + 35)));
    STRCMP_EQUAL(r.out.c_str(), invoke(args).out.c_str()); // the draws are seeded
}

TEST(BurstsimThreadsCli, AThreadPolicyWithoutAutoJobsIsNamedInAWarning)
{
    TempTrace t(kTrace);
    Run r = invoke({"--trace", t.path(), "--policy", "never", "--thread-policy", "greedy"});
    LONGS_EQUAL(0, r.status);
    CHECK(r.err.find("warning: --thread-policy: thread policy greedy: no job of the trace asks for "
                     "--threads=auto") != std::string::npos);
}

TEST(BurstsimThreadsCli, RejectsABadThreadPolicyOrShareWithStatusTwo)
{
    TempTrace t(kTrace);
    Run unknown = invoke({"--trace", t.path(), "--thread-policy", "nosuch"});
    LONGS_EQUAL(2, unknown.status);
    CHECK(unknown.err.find("unknown thread policy 'nosuch' (known: best-constant, greedy, long-term, "
                           "long-term-adaptive)") != std::string::npos);
    Run param = invoke({"--trace", t.path(), "--thread-policy", "greedy,colour=red"});
    LONGS_EQUAL(2, param.status);
    CHECK(param.err.find("unknown parameter(s) colour") != std::string::npos);
    LONGS_EQUAL(2, invoke({"--trace", t.path(), "--thread-policy", "greedy,lambda"}).status);
    LONGS_EQUAL(2, invoke({"--trace", t.path(), "--auto-threads", "1.5"}).status);
    LONGS_EQUAL(2, invoke({"--trace", t.path(), "--auto-threads", "-0.1"}).status);
}

TEST(BurstsimThreadsCli, TheSmowtonScenarioRunsEachPolicyWithEachAllocator)
{
    Run r = invoke({"--scenario", "smowton:duration=30,intervals=2.5,prices=50,rewards=time,policies=always,"
                                  "threads=constant:greedy:long-term-adaptive,reps=2,plan_seeds=1"});
    LONGS_EQUAL(0, r.status);
    CHECK(r.out.find("always/constant") != std::string::npos);
    CHECK(r.out.find("always/long-term-adaptive") != std::string::npos);
    CHECK(r.out.find("margins over constant") != std::string::npos);
    CHECK(r.out.find("constant plan ") != std::string::npos);
    LONGS_EQUAL(2, invoke({"--scenario", "smowton:threads=magic"}).status);
}

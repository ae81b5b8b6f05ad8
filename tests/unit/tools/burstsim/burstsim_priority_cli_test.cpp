#include <sstream>
#include <string>
#include <vector>

#include "tools/burstsim/burstsim_cli_harness.hpp"

using namespace burst;
using namespace burst::test;

namespace {

// One core.  Group 1's job 1 holds it 10000 s; group 1 queues job 2 (2000 s)
// at 100 s, group 2 job 3 (1000 s) at 200 s.  FCFS: waits 9900 and 11800
// (mean 2.01 h with job 1); fair-share runs job 3 first: 10900 and 9800 (1.92 h).
const char* const kTrace = "; MaxProcs: 1\n"
                           "1 0 0 10000 1 -1 -1 1 10000 -1 1 1 1 1 -1 -1 -1 -1\n"
                           "2 100 0 2000 1 -1 -1 1 2000 -1 1 1 1 1 -1 -1 -1 -1\n"
                           "3 200 0 1000 1 -1 -1 1 1000 -1 1 2 2 1 -1 -1 -1 -1\n";

// The same jobs, but job 3 is user 2's in user 1's group 1: one account.
// Fair Tree ranks user u2 (no usage) above u1, so job 3 runs first (1.92 h);
// the classic algorithm, every user at Fairshare=parent, gives both jobs
// g1's factor: FCFS (2.01 h).
const char* const kOneAccountTrace = "; MaxProcs: 1\n"
                                     "1 0 0 10000 1 -1 -1 1 10000 -1 1 1 1 1 -1 -1 -1 -1\n"
                                     "2 100 0 2000 1 -1 -1 1 2000 -1 1 1 1 1 -1 -1 -1 -1\n"
                                     "3 200 0 1000 1 -1 -1 1 1000 -1 1 2 1 1 -1 -1 -1 -1\n";

} // namespace

TEST_GROUP(BurstsimPriorityCli){};

TEST(BurstsimPriorityCli, MultifactorWithFairShareReordersTheQueueAndSharesMayComeFromAFile)
{
    TempTrace trace(kTrace, ".swf");
    Run fifo = invoke({"--trace", trace.path(), "--policy", "never"});
    LONGS_EQUAL(0, fifo.status);
    CHECK(fifo.out.find("2.01h") != std::string::npos);
    Run mf = invoke({"--trace", trace.path(), "--policy", "never", "--priority",
                     "multifactor:PriorityWeightFairshare=10000,PriorityCalcPeriod=1"});
    LONGS_EQUAL(0, mf.status);
    CHECK(mf.out.find("1.92h") != std::string::npos);
    // g2 with 0 shares has LF 0 and ranks last (Fair Tree; classic too gives
    // it factor 0): FCFS again.
    TempTrace shares("# site\ng1=1000\ng2 = 0\n", ".shares");
    Run weighted = invoke({"--trace", trace.path(), "--policy", "never", "--shares", shares.path(), "--priority",
                           "multifactor:PriorityWeightFairshare=10000,PriorityCalcPeriod=1"});
    LONGS_EQUAL(0, weighted.status);
    CHECK(weighted.out.find("2.01h") != std::string::npos);
}

TEST(BurstsimPriorityCli, FairTreeByDefaultRanksUsersOfOneAccountClassicOnRequest)
{
    TempTrace trace(kOneAccountTrace, ".swf");
    const std::string mf = "multifactor:PriorityWeightFairshare=10000,PriorityCalcPeriod=1";
    Run fair_tree = invoke({"--trace", trace.path(), "--policy", "never", "--priority", mf});
    LONGS_EQUAL(0, fair_tree.status);
    CHECK(fair_tree.out.find("1.92h") != std::string::npos);
    Run classic = invoke({"--trace", trace.path(), "--policy", "never", "--priority", mf + ",PriorityFlags=NO_FAIR_TREE"});
    LONGS_EQUAL(0, classic.status);
    CHECK(classic.out.find("2.01h") != std::string::npos);
    // u2 with 0 shares in g1: LF 0, below u1: FCFS again.
    Run zero = invoke({"--trace", trace.path(), "--policy", "never", "--priority", mf, "--shares", "g1/u2=0"});
    LONGS_EQUAL(0, zero.status);
    CHECK(zero.out.find("2.01h") != std::string::npos);
}

TEST(BurstsimPriorityCli, RejectsBadPriorityOptionsWithStatusTwo)
{
    TempTrace trace(kTrace, ".swf");
    Run r = invoke({"--trace", trace.path(), "--shares", "g1=2"});
    LONGS_EQUAL(2, r.status);
    CHECK(r.err.find("--shares needs --priority multifactor") != std::string::npos);
    r = invoke({"--trace", trace.path(), "--priority", "multifactor:PriorityWeightQOS=1"});
    LONGS_EQUAL(2, r.status);
    CHECK(r.err.find("unknown priority parameter 'PriorityWeightQOS'") != std::string::npos);
    r = invoke({"--trace", trace.path(), "--priority", "multifactor", "--shares", "/nonexistent/shares"});
    LONGS_EQUAL(2, r.status);
    CHECK(r.err.find("/nonexistent/shares: cannot open") != std::string::npos);
    r = invoke({"--trace", trace.path(), "--priority", "multifactor:PriorityFlags=NO_FAIR_TREE", "--shares", "g1/u1=2"});
    LONGS_EQUAL(2, r.status);
    CHECK(r.err.find("ACCOUNT/USER entries need Fair Tree") != std::string::npos);
    r = invoke({"--trace", trace.path(), "--priority", "multifactor:PriorityFlags=NO_FAIR_TREE", "--shares", "g1=parent"});
    LONGS_EQUAL(2, r.status);
    CHECK(r.err.find("g1=parent needs Fair Tree") != std::string::npos);
    r = invoke({"--trace", trace.path(), "--priority", "multifactor", "--shares", "g1/u1=some"});
    LONGS_EQUAL(2, r.status);
    CHECK(r.err.find("ACCOUNT/USER=SHARES|parent") != std::string::npos);
    r = invoke({"--scenario", "zheng", "--priority", "multifactor"});
    LONGS_EQUAL(2, r.status);
}

#include "app/budget_conf.hpp"
#include "sim/burstsim_cli.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

class TempFile {
public:
    TempFile(const std::string& suffix, const std::string& text)
    {
        std::string name = "/tmp/burstsim-priority-XXXXXX" + suffix;
        int fd = mkstemps(name.data(), int(suffix.size()));
        if (fd < 0)
            FAIL("mkstemps");
        close(fd);
        path_ = name;
        std::ofstream(path_) << text;
    }
    ~TempFile() { std::remove(path_.c_str()); }
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

struct Run {
    int status;
    std::string out, err;
};

Run invoke(const std::vector<std::string>& args)
{
    std::ostringstream out, err;
    int status = burstsim_main(args, out, err, read_budget_conf);
    return Run{status, out.str(), err.str()};
}

// One core.  Group 1's job 1 holds it 10000 s; group 1 queues job 2 (2000 s)
// at 100 s, group 2 job 3 (1000 s) at 200 s.  FCFS: waits 9900 and 11800
// (mean 2.01 h with job 1); fair-share runs job 3 first: 10900 and 9800 (1.92 h).
const char* const kTrace = "; MaxProcs: 1\n"
                           "1 0 0 10000 1 -1 -1 1 10000 -1 1 1 1 1 -1 -1 -1 -1\n"
                           "2 100 0 2000 1 -1 -1 1 2000 -1 1 1 1 1 -1 -1 -1 -1\n"
                           "3 200 0 1000 1 -1 -1 1 1000 -1 1 2 2 1 -1 -1 -1 -1\n";

} // namespace

TEST_GROUP(BurstsimPriorityCli){};

TEST(BurstsimPriorityCli, MultifactorWithFairShareReordersTheQueueAndSharesMayComeFromAFile)
{
    TempFile trace(".swf", kTrace);
    Run fifo = invoke({"--trace", trace.path(), "--policy", "never"});
    LONGS_EQUAL(0, fifo.status);
    CHECK(fifo.out.find("2.01h") != std::string::npos);
    Run mf = invoke({"--trace", trace.path(), "--policy", "never", "--priority",
                     "multifactor:PriorityWeightFairshare=10000,PriorityCalcPeriod=1"});
    LONGS_EQUAL(0, mf.status);
    CHECK(mf.out.find("1.92h") != std::string::npos);
    // g2 without shares has factor 0 (an account without usage has 1 whatever
    // its shares, in the classic algorithm): FCFS again.
    TempFile shares(".shares", "# site\ng1=1000\ng2 = 0\n");
    Run weighted = invoke({"--trace", trace.path(), "--policy", "never", "--shares", shares.path(), "--priority",
                           "multifactor:PriorityWeightFairshare=10000,PriorityCalcPeriod=1"});
    LONGS_EQUAL(0, weighted.status);
    CHECK(weighted.out.find("2.01h") != std::string::npos);
}

TEST(BurstsimPriorityCli, RejectsBadPriorityOptionsWithStatusTwo)
{
    TempFile trace(".swf", kTrace);
    Run r = invoke({"--trace", trace.path(), "--shares", "g1=2"});
    LONGS_EQUAL(2, r.status);
    CHECK(r.err.find("--shares needs --priority multifactor") != std::string::npos);
    r = invoke({"--trace", trace.path(), "--priority", "multifactor:PriorityWeightQOS=1"});
    LONGS_EQUAL(2, r.status);
    CHECK(r.err.find("unknown priority parameter 'PriorityWeightQOS'") != std::string::npos);
    r = invoke({"--trace", trace.path(), "--priority", "multifactor", "--shares", "/nonexistent/shares"});
    LONGS_EQUAL(2, r.status);
    CHECK(r.err.find("/nonexistent/shares: cannot open") != std::string::npos);
    r = invoke({"--scenario", "zheng", "--priority", "multifactor"});
    LONGS_EQUAL(2, r.status);
}

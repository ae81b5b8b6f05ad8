#include "app/budget_conf.hpp"
#include "sim/burstsim_cli.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

// A trace file that exists for one test.
class TempTrace {
public:
    explicit TempTrace(const std::string& text)
    {
        char name[] = "/tmp/burstsim-test-XXXXXX.swf";
        int fd = mkstemps(name, 4);
        if (fd < 0)
            FAIL("mkstemps");
        close(fd);
        path_ = name;
        std::ofstream(path_) << text;
    }
    ~TempTrace() { std::remove(path_.c_str()); }
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

const char* const kTrace = "; MaxProcs: 4\n"
                           "1 0 0 1000 4 -1 -1 4 1000 -1 1 1 1 1 -1 -1 -1 -1\n"
                           "2 0 0 100 2 -1 -1 2 100 -1 1 1 1 1 -1 -1 -1 -1\n"
                           "3 5 0 100 2 -1 -1 2 100 -1 1 1 1 1 -1 -1 -1 -1\n"
                           "4 5 0 1\n";

} // namespace

TEST_GROUP(BurstsimCli){};

TEST(BurstsimCli, ComparesPoliciesInOneTable)
{
    TempTrace t(kTrace);
    Run r = invoke({"--trace", t.path(), "--group", "g,cpus=2,price=3.6,boot=30,max=4", "--compare", "never,always",
                 "--seed", "3", "--lambda", "2"});
    LONGS_EQUAL(0, r.status);
    CHECK(r.out.find("policy") != std::string::npos);
    CHECK(r.out.find("never") != std::string::npos);
    CHECK(r.out.find("always") != std::string::npos);
    // The truncated line is reported with its line number.
    CHECK(r.err.find(t.path() + ":5:") != std::string::npos);
    CHECK(r.err.find("1 malformed") != std::string::npos);
}

TEST(BurstsimCli, RejectsBadArgumentsWithStatusTwo)
{
    TempTrace t(kTrace);
    Run unknown = invoke({"--trace", t.path(), "--policy", "magic"});
    LONGS_EQUAL(2, unknown.status);
    CHECK(unknown.err.find("known: never, always, threshold, boot-window") != std::string::npos);
    LONGS_EQUAL(2, invoke({"--policy", "never"}).status); // no trace
    LONGS_EQUAL(2, invoke({"--trace", t.path(), "--seed", "-1"}).status);
    LONGS_EQUAL(2, invoke({"--trace", t.path(), "--group", "g,cpus=2"}).status);
    LONGS_EQUAL(2, invoke({"--trace", t.path(), "--policy", "always", "--param", "colour=red"}).status);
    LONGS_EQUAL(2, invoke({"--trace", t.path(), "--frobnicate"}).status);
    LONGS_EQUAL(2, invoke({"--trace", t.path(), "--cycle"}).status);
}

TEST(BurstsimCli, ScopesParametersToOnePolicy)
{
    TempTrace t(kTrace);
    Run r = invoke({"--trace", t.path(), "--group", "g,cpus=2,max=4", "--compare", "never,threshold", "--param",
                 "threshold:target_utilization=0.5"});
    LONGS_EQUAL(0, r.status);
}

TEST(BurstsimCli, FailsWithStatusOneOnAnUnreadableTrace)
{
    Run r = invoke({"--trace", "/nonexistent/trace.swf", "--local-cores", "4"});
    LONGS_EQUAL(1, r.status);
    CHECK(r.err.find("cannot open") != std::string::npos);
}

TEST(BurstsimCli, RunsLambdaPoliciesOncePerLambdaAndShowsEveryObjective)
{
    TempTrace t(kTrace);
    Run r = invoke({"--trace", t.path(), "--group", "g,cpus=2,price=3.6,boot=30,max=4", "--compare",
                    "never,predictive", "--lambda", "0.5,5", "--budget", "1"});
    LONGS_EQUAL(0, r.status);
    CHECK(r.out.find("J@0.50") != std::string::npos);
    CHECK(r.out.find("J@5.00") != std::string::npos);
    CHECK(r.out.find("predictive(lambda=0.5)") != std::string::npos);
    CHECK(r.out.find("predictive(lambda=5)") != std::string::npos);
    CHECK(r.out.find("viol") != std::string::npos);
    CHECK(r.out.find("a_U") != std::string::npos);
}

TEST(BurstsimCli, TuneDelayReportsTheBestDelayPerLambda)
{
    TempTrace t(kTrace);
    Run r = invoke({"--trace", t.path(), "--group", "g,cpus=2,price=3.6,boot=30,max=4", "--compare", "never",
                    "--lambda", "0,1000", "--tune-delay", "--delay-grid", "0,50,5000"});
    LONGS_EQUAL(0, r.status);
    // With waiting free the best delay never bursts within the trace; when
    // waiting is dear, bursting at once wins.
    CHECK(r.out.find("best-delay(W=5000s)") != std::string::npos);
    CHECK(r.out.find("best-delay(W=0s)") != std::string::npos);
    LONGS_EQUAL(2, invoke({"--trace", t.path(), "--tune-delay", "--param", "fixed-delay:delay=5"}).status);
    LONGS_EQUAL(2, invoke({"--trace", t.path(), "--delay-grid", ""}).status);
}

TEST(BurstsimCli, ClairvoyantReferenceHasARowPerLambda)
{
    TempTrace t(kTrace);
    Run r = invoke({"--trace", t.path(), "--group", "g,cpus=2,price=3.6,boot=30,max=4", "--compare", "never",
                    "--lambda", "1,100", "--clairvoyant"});
    LONGS_EQUAL(0, r.status);
    CHECK(r.out.find("clairvoyant(lambda=1)") != std::string::npos);
    CHECK(r.out.find("clairvoyant(lambda=100)") != std::string::npos);
}

TEST(BurstsimCli, ConfAppliesTheBudgetLinesOfABurstdConfAndReportsThemPerLineAndAccount)
{
    TempTrace t(kTrace);
    // Jobs 2 and 3 (account g1) would burst: each bound to one node for
    // 30 s + its 100 s limit = 0.13, more than g1's 0.1 a day.
    TempTrace conf("ClusterName=sim\nBudget=g1 Amount=0.1 Interval=day\nBudget=* Amount=5 Interval=1h\n");
    const std::vector<std::string> site = {"--trace", t.path(), "--group", "g,cpus=2,price=3.6,boot=30,max=4"};
    std::vector<std::string> args = site;
    args.insert(args.end(), {"--policy", "always", "--conf", conf.path()});
    Run capped = invoke(args);
    LONGS_EQUAL(0, capped.status);
    CHECK(capped.out.find("Budget=g1 Amount=0.1 Interval=1d") != std::string::npos);
    CHECK(capped.out.find("Budget=* Amount=5 Interval=1h") != std::string::npos);
    CHECK(capped.out.find("dropped by the cap (over_budget): route ") != std::string::npos);
    CHECK(capped.out.find("would need up to 0.13 on g, so it stays local") != std::string::npos);

    // --uncapped books and reports against the same lines but applies every decision.
    args = site;
    args.insert(args.end(), {"--policy", "always", "--conf", conf.path(), "--uncapped"});
    Run uncapped = invoke(args);
    LONGS_EQUAL(0, uncapped.status);
    CHECK(uncapped.out.find("Budget=g1 Amount=0.1 Interval=1d") != std::string::npos);
    CHECK(uncapped.out.find("dropped by the cap") == std::string::npos);
    CHECK(uncapped.out.find("budget cap notes 0") != std::string::npos);
    LONGS_EQUAL(2, invoke({"--trace", t.path(), "--policy", "always", "--uncapped"}).status);

    args = site;
    args.insert(args.end(), {"--compare", "never,always", "--conf", conf.path()});
    Run table = invoke(args);
    LONGS_EQUAL(0, table.status);
    CHECK(table.out.find("capped") != std::string::npos);
    CHECK(table.out.find("b_viol") != std::string::npos);
    CHECK(table.out.find("max/interval") != std::string::npos);
}

TEST(BurstsimCli, ConfErrorsNameTheFileAndLineAsBurstdDoes)
{
    TempTrace t(kTrace);
    TempTrace bad("ClusterName=sim\nBudget=g1 Amount=lots Interval=day\n");
    Run r = invoke({"--trace", t.path(), "--policy", "always", "--conf", bad.path()});
    LONGS_EQUAL(2, r.status);
    CHECK(r.err.find(bad.path() + ":2: Budget=g1: Amount: expected a non-negative number, got \"lots\"") !=
          std::string::npos);

    TempTrace none("ClusterName=sim\n");
    r = invoke({"--trace", t.path(), "--policy", "always", "--conf", none.path()});
    LONGS_EQUAL(2, r.status);
    CHECK(r.err.find("has no Budget= line") != std::string::npos);

    r = invoke({"--trace", t.path(), "--policy", "always", "--conf", "/nonexistent/burstd.conf"});
    LONGS_EQUAL(2, r.status);
    CHECK(r.err.find("/nonexistent/burstd.conf: cannot read") != std::string::npos);
    LONGS_EQUAL(2, invoke({"--trace", t.path(), "--conf", none.path(), "--conf", none.path()}).status);
}

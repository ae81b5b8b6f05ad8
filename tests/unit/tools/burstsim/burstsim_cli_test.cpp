#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tools/burstsim/burstsim_cli_harness.hpp"

using namespace burst;
using namespace burst::test;

namespace {

const char* const kTrace = "; MaxProcs: 4\n"
                           "1 0 0 1000 4 -1 -1 4 1000 -1 1 1 1 1 -1 -1 -1 -1\n"
                           "2 0 0 100 2 -1 -1 2 100 -1 1 1 1 1 -1 -1 -1 -1\n"
                           "3 5 0 100 2 -1 -1 2 100 -1 1 1 1 1 -1 -1 -1 -1\n"
                           "4 5 0 1\n";

// The ratios table: every row's J is above the reference's at its λ, the
// reference is one of its own schedules, not a row's run taken as is, and
// the lower bound on J of every schedule, when there is one (`bounded`:
// there must be, at every λ), is above 0 and below them all.
void reference_is_below_every_row(const std::string& out, std::size_t min_rows, bool bounded = true)
{
    std::istringstream in(out.substr(out.find("\nratios")));
    std::string line;
    std::getline(in, line);
    std::getline(in, line); // the header
    std::map<double, double> reference, bound;
    std::vector<std::pair<double, double>> rows; // λ, J
    while (std::getline(in, line) && !line.empty()) {
        std::istringstream fields(line);
        std::string label;
        double lambda = 0, j = 0;
        fields >> label >> lambda >> j;
        if (label.rfind("clairvoyant", 0) == 0) {
            CHECK(label.find("-as-run") == std::string::npos);
            reference[lambda] = j;
        } else if (label == "J-bound") {
            bound[lambda] = j;
        } else {
            rows.emplace_back(lambda, j);
        }
    }
    CHECK(!reference.empty());
    CHECK(rows.size() >= min_rows);
    for (const auto& [lambda, j] : rows) {
        CHECK(reference.count(lambda) == 1);
        CHECK(reference[lambda] < j);
    }
    CHECK(bound.size() == (bounded ? reference.size() : 0));
    for (const auto& [lambda, j] : bound) {
        CHECK(j > 0);
        CHECK(j <= reference[lambda]);
    }
}

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

// An option another one gives meaning to, a doubled comma or a repeated
// item would otherwise be dropped or run twice without a word.
TEST(BurstsimCli, RejectsOptionsThatWouldBeIgnoredOrRepeated)
{
    TempTrace t(kTrace);
    auto error = [](std::vector<std::string> args) {
        Run r = invoke(args);
        LONGS_EQUAL(2, r.status);
        return r.err;
    };
    const std::string group = "g,cpus=2,price=1,boot=60,max=4";
    CHECK(error({"--workload", "blast", "--format", "sacct"}).find("--format applies only with --trace") !=
          std::string::npos);
    CHECK(error({"--trace", t.path(), "--workflow-count", "3"}).find("--workflow-count applies only with --workflow") !=
          std::string::npos);
    CHECK(error({"--trace", t.path(), "--delay-grid", "0,60"}).find("only with --tune-delay") != std::string::npos);
    CHECK(error({"--trace", t.path(), "--clairvoyant-iterations", "2"}).find("only with --clairvoyant") !=
          std::string::npos);
    CHECK(error({"--trace", t.path(), "--budget-interval", "60"}).find("only with --budget") != std::string::npos);
    CHECK(error({"--trace", t.path(), "--lambda", "1,,2"}).find("--lambda '1,,2': empty item") != std::string::npos);
    CHECK(error({"--trace", t.path(), "--lambda", "1,"}).find("empty item") != std::string::npos);
    CHECK(error({"--trace", t.path(), "--lambda", "1,1.0"}).find("1.0 given twice") != std::string::npos);
    CHECK(error({"--trace", t.path(), "--compare", "never,never"}).find("never given twice") != std::string::npos);
    CHECK(error({"--trace", t.path(), "--group", group, "--group", group}).find("two groups named 'g'") !=
          std::string::npos);
}

TEST(BurstsimCli, ScopesParametersToOnePolicy)
{
    TempTrace t(kTrace);
    Run r = invoke({"--trace", t.path(), "--group", "g,cpus=2,price=0,boot=120,max=4", "--compare", "never,threshold", "--param",
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
    CHECK_TEXT(r.out.find("best-delay(lambda=0,W=5000s)") != std::string::npos, r.out.c_str());
    CHECK(r.out.find("best-delay(lambda=1000,W=0s)") != std::string::npos);
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

TEST(BurstsimCli, ClairvoyantReferenceIsAtOrBelowEveryRowAndBeatsEarlyReleasingPolicies)
{
    // An 8-core job holds the site for an hour; two 4-core jobs arrive 10 s
    // and 20 s later.  boot-window and pfa power their nodes down as soon as
    // they are idle, which once put them below a reference that only routed
    // (each node booting after its job arrived, then idling to SuspendTime).
    // The reference hires ahead of the arrivals and releases at once, so it
    // is below every row here by its own candidates, not by copying a row.
    TempTrace t("; MaxProcs: 8\n"
                "1 0 0 3600 8 -1 -1 8 3600 -1 1 1 1 1 1 -1 -1 -1\n"
                "2 10 -1 1800 4 -1 -1 4 3600 -1 1 2 2 1 1 -1 -1 -1\n"
                "3 20 -1 1800 4 -1 -1 4 3600 -1 1 2 2 1 1 -1 -1 -1\n");
    Run r = invoke({"--trace", t.path(), "--compare",
                    "never,always,threshold,boot-window,predictive,forecast,pfa,fixed-delay", "--group",
                    "c,cpus=4,price=1,boot=100,max=4", "--clairvoyant", "--tune-delay", "--lambda", "1,5",
                    "--boot-jitter", "0"});
    LONGS_EQUAL(0, r.status);
    reference_is_below_every_row(r.out, 16);
}

TEST(BurstsimCli, ClairvoyantReferenceTriesEveryComparedPolicysBurstSetNotOnlyTheBestRuns)
{
    // threshold's run is the worst of the three research policies here, yet
    // its burst set, replayed with foreknowledge, is the best schedule found
    // (8.95 at λ = 1; taking only the best run's, the reference was 11.32).
    TempTrace t("; MaxProcs: 8\n"
                "1 600 -1 1800 2 -1 -1 2 3600 -1 1 1 1 1 1 -1 -1 -1\n"
                "2 605 -1 3600 1 -1 -1 1 7200 -1 1 1 1 1 1 -1 -1 -1\n"
                "3 605 -1 60 1 -1 -1 1 120 -1 1 1 1 1 1 -1 -1 -1\n"
                "4 605 -1 1800 4 -1 -1 4 3600 -1 1 1 1 1 1 -1 -1 -1\n"
                "5 805 -1 1800 2 -1 -1 2 3600 -1 1 1 1 1 1 -1 -1 -1\n"
                "6 810 -1 60 2 -1 -1 2 120 -1 1 1 1 1 1 -1 -1 -1\n"
                "7 840 -1 3600 8 -1 -1 8 7200 -1 1 1 1 1 1 -1 -1 -1\n"
                "8 840 -1 900 8 -1 -1 8 1800 -1 1 1 1 1 1 -1 -1 -1\n"
                "9 1040 -1 1800 4 -1 -1 4 3600 -1 1 1 1 1 1 -1 -1 -1\n"
                "10 1070 -1 300 4 -1 -1 4 600 -1 1 1 1 1 1 -1 -1 -1\n"
                "11 1270 -1 60 4 -1 -1 4 120 -1 1 1 1 1 1 -1 -1 -1\n"
                "12 1270 -1 60 1 -1 -1 1 120 -1 1 1 1 1 1 -1 -1 -1\n");
    Run r = invoke({"--trace", t.path(), "--compare", "never,always,threshold,forecast,boot-window", "--group",
                    "c,cpus=4,price=1,boot=100,max=4", "--clairvoyant", "--lambda", "1", "--boot-jitter", "0"});
    LONGS_EQUAL_TEXT(0, r.status, r.err.c_str());
    const double threshold = cell(r.out, "threshold", "J@1.00");
    CHECK(threshold > cell(r.out, "forecast(lambda=1)", "J@1.00"));
    CHECK(threshold > cell(r.out, "boot-window", "J@1.00"));
    CHECK_TEXT(r.out.find("\nclairvoyant(lambda=1)[threshold") != std::string::npos, r.out.c_str());
    reference_is_below_every_row(r.out, 4);
}

TEST(BurstsimCli, ClairvoyantReferenceHiresAheadForWorkflowTasksRoutedAtAGivenTime)
{
    // BLAST tasks depend on their split job: the reference routes the
    // baselines' cloud tasks no earlier than they started there, hired for
    // ahead, and so beats every policy without taking one's run as it is.
    Run r = invoke({"--workload", "blast", "--local-cores", "9", "--group", "gke,cpus=3,price=0.19,boot=157,max=17",
                    "--compare", "never,always,threshold,boot-window", "--clairvoyant", "--lambda", "0.1,1"});
    LONGS_EQUAL(0, r.status);
    // A task's wait counts from its parents' end: no bound on J holds.
    reference_is_below_every_row(r.out, 4, false);
}

TEST(BurstsimCli, ConfigAppliesTheBudgetLinesOfABurstdConfAndReportsThemPerLineAndAccount)
{
    TempTrace t(kTrace);
    // Jobs 2 and 3 (account g1) would burst: each bound to one node for
    // 30 s + its 100 s limit = 0.13, more than g1's 0.1 a day.
    TempTrace conf("ClusterName=sim\nBudget=g1 Amount=0.1 Interval=day\nBudget=* Amount=5 Interval=1h\n");
    const std::vector<std::string> site = {"--trace", t.path(), "--group", "g,cpus=2,price=3.6,boot=30,max=4"};
    std::vector<std::string> args = site;
    args.insert(args.end(), {"--policy", "always", "--config", conf.path()});
    Run capped = invoke(args);
    LONGS_EQUAL(0, capped.status);
    CHECK(capped.out.find("Budget=g1 Amount=0.1 Interval=1d") != std::string::npos);
    CHECK(capped.out.find("Budget=* Amount=5 Interval=1h") != std::string::npos);
    CHECK(capped.out.find("dropped by the cap (over_budget): route ") != std::string::npos);
    CHECK(capped.out.find("would need up to 0.13 on g, so it stays local") != std::string::npos);

    // --uncapped books and reports against the same lines but applies every decision.
    args = site;
    args.insert(args.end(), {"--policy", "always", "--config", conf.path(), "--uncapped"});
    Run uncapped = invoke(args);
    LONGS_EQUAL(0, uncapped.status);
    CHECK(uncapped.out.find("Budget=g1 Amount=0.1 Interval=1d") != std::string::npos);
    CHECK(uncapped.out.find("dropped by the cap") == std::string::npos);
    CHECK(uncapped.out.find("budget cap notes 0") != std::string::npos);
    LONGS_EQUAL(2, invoke({"--trace", t.path(), "--policy", "always", "--uncapped"}).status);

    args = site;
    args.insert(args.end(), {"--compare", "never,always", "--config", conf.path()});
    Run table = invoke(args);
    LONGS_EQUAL(0, table.status);
    CHECK(table.out.find("capped") != std::string::npos);
    CHECK(table.out.find("b_viol") != std::string::npos);
    CHECK(table.out.find("max/interval") != std::string::npos);
}

TEST(BurstsimCli, ConfigErrorsNameTheFileAndLineAsBurstdDoes)
{
    TempTrace t(kTrace);
    TempTrace bad("ClusterName=sim\nBudget=g1 Amount=lots Interval=day\n");
    Run r = invoke({"--trace", t.path(), "--policy", "always", "--config", bad.path()});
    LONGS_EQUAL(2, r.status);
    CHECK(r.err.find(bad.path() + ":2: Budget=g1: Amount: expected a non-negative number, got \"lots\"") !=
          std::string::npos);

    TempTrace none("ClusterName=sim\n");
    r = invoke({"--trace", t.path(), "--policy", "always", "--config", none.path(), "--uncapped"});
    LONGS_EQUAL(2, r.status);
    CHECK(r.err.find("has no Budget= line to report against") != std::string::npos);
    r = invoke({"--trace", t.path(), "--config", none.path()});
    LONGS_EQUAL(2, r.status);
    CHECK(r.err.find("has no Policy= line: give --policy or --compare") != std::string::npos);

    r = invoke({"--trace", t.path(), "--policy", "always", "--config", "/nonexistent/burstd.conf"});
    LONGS_EQUAL(2, r.status);
    CHECK(r.err.find("/nonexistent/burstd.conf: cannot read") != std::string::npos);
    LONGS_EQUAL(2, invoke({"--trace", t.path(), "--config", none.path(), "--config", none.path()}).status);

    TempTrace bad_link("ClusterName=sim\nPolicy=forecast lambda=-1\n");
    r = invoke({"--trace", t.path(), "--config", bad_link.path()});
    LONGS_EQUAL(2, r.status);
    CHECK(r.err.find(bad_link.path() + ":2: Policy=forecast: policy parameter lambda") != std::string::npos);
}

TEST(BurstsimCli, CompareShowsMedianWaitMakespanProfitAccountCostAndDroppedJobs)
{
    TempTrace t(kTrace);
    Run r = invoke({"--trace", t.path(), "--local-cores", "2", "--group", "g,cpus=2,price=3.6,boot=30,max=4",
                    "--compare", "never,always", "--reward-max", "100"});
    LONGS_EQUAL(0, r.status);
    for (const char* column : {"med_wait", "makespan", "profit_time", "profit_thru"})
        CHECK_TEXT(r.out.find(column) != std::string::npos, column);
    // Job 1 (4 cores) does not fit 2 local cores: said once for the table.
    CHECK(r.out.find("jobs not replayed (wider than 2 local cores) 1; runtimes cut at their limit 0") !=
          std::string::npos);
    CHECK(r.out.find("cost by account, always: ") != std::string::npos);
    LONGS_EQUAL(2, invoke({"--trace", t.path(), "--reward-scale", "-1"}).status);
}

TEST(BurstsimCli, EveryRowsProfitIsAtItsOwnLambda)
{
    TempTrace t(kTrace);
    auto with = [&](std::vector<std::string> more) {
        std::vector<std::string> args = {"--trace", t.path(), "--group", "g,cpus=2,price=3.6,boot=30,max=4"};
        args.insert(args.end(), more.begin(), more.end());
        return invoke(args);
    };
    Run sweep = with({"--compare", "never,predictive", "--lambda", "1,5", "--tune-delay", "--delay-grid", "5000",
                      "--clairvoyant"});
    LONGS_EQUAL_TEXT(0, sweep.status, sweep.err.c_str());
    // One delay that never bursts within the trace: both best-delay rows are
    // the same replay without cloud cost, and every job's reward loss is
    // proportional to λ in both schemes (R_scale = λ × 3600).
    for (const char* column : {"profit_time", "profit_thru"}) {
        const double at1 = cell(sweep.out, "best-delay(lambda=1,W=5000s)", column);
        const double at5 = cell(sweep.out, "best-delay(lambda=5,W=5000s)", column);
        CHECK_TEXT(at1 != 0, column);
        DOUBLES_EQUAL(5 * at1, at5, 0.05);
    }
    // A swept row and the reference's row at λ = 5 show the profit that a
    // run at λ = 5 alone shows, and so does predictive given λ = 5 with
    // --param: the profit is at the λ the policy's gate used.
    Run alone = with({"--compare", "never,predictive", "--lambda", "5", "--tune-delay", "--delay-grid", "5000",
                      "--clairvoyant"});
    Run given = with({"--compare", "never,predictive", "--lambda", "1", "--param", "predictive:lambda=5"});
    LONGS_EQUAL_TEXT(0, alone.status, alone.err.c_str());
    LONGS_EQUAL_TEXT(0, given.status, given.err.c_str());
    auto reference_label = [](const std::string& out) {
        const auto at = out.find("\nclairvoyant(lambda=5)[");
        CHECK_TEXT(at != std::string::npos, out.c_str());
        return out.substr(at + 1, out.find(' ', at) - at - 1);
    };
    for (const char* column : {"profit_time", "profit_thru"}) {
        const double predictive = cell(alone.out, "predictive(lambda=5)", column);
        CHECK_TEXT(predictive != cell(sweep.out, "predictive(lambda=1)", column), column);
        DOUBLES_EQUAL(predictive, cell(sweep.out, "predictive(lambda=5)", column), 0);
        DOUBLES_EQUAL(predictive, cell(given.out, "predictive", column), 0);
        DOUBLES_EQUAL(cell(alone.out, reference_label(alone.out), column),
                      cell(sweep.out, reference_label(sweep.out), column), 0);
    }
}

TEST(BurstsimCli, GuessesTheFormatFromTheContentAndFailsWithoutJobs)
{
    TempTrace swf_as_txt(kTrace, ".txt");
    Run r = invoke({"--trace", swf_as_txt.path(), "--policy", "never"});
    LONGS_EQUAL(0, r.status);
    CHECK(r.err.find("3 jobs from 5 lines") != std::string::npos);

    TempTrace sacct("JobIDRaw|Account|User|Submit|Start|End|AllocCPUS|ReqCPUS|Timelimit|State\n"
                    "1|a|u|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|1|1|UNLIMITED|COMPLETED\n");
    Run s = invoke({"--trace", sacct.path(), "--local-cores", "2"});
    LONGS_EQUAL(0, s.status);
    CHECK(s.err.find("1 jobs from 2 lines") != std::string::npos);

    TempTrace empty("; MaxProcs: 4\n");
    Run e = invoke({"--trace", empty.path()});
    LONGS_EQUAL(1, e.status);
    CHECK(e.err.find("no job to replay") != std::string::npos);
    CHECK(e.out.empty());
}

TEST(BurstsimCli, RejectsAParamPrefixThatIsNoPolicyOfTheRun)
{
    TempTrace t(kTrace);
    Run r = invoke({"--trace", t.path(), "--group", "g,cpus=2,price=0,boot=120,max=4", "--compare", "always,threshold", "--param",
                    "thresold:target_utilization=0.5"});
    LONGS_EQUAL(2, r.status);
    CHECK_TEXT(r.err.find("'thresold' is not a policy of this run (run: always, threshold)") != std::string::npos,
               r.err.c_str());
    // fixed-delay is a policy of a --tune-delay run.
    LONGS_EQUAL(0, invoke({"--trace", t.path(), "--tune-delay", "--delay-grid", "0", "--param",
                           "fixed-delay:expander=price", "--group", "g,cpus=2,price=0,boot=120,max=4"})
                       .status);
}

TEST(BurstsimCli, ScenarioRejectsEveryOptionItDoesNotTake)
{
    for (const char* option : {"--group", "--lambda", "--budget", "--local-cores", "--cycle", "--tau"}) {
        const std::string value = std::string(option) == "--group" ? "g,cpus=2,price=0,boot=120,max=4" : "7";
        Run r = invoke({"--scenario", "zheng", option, value});
        LONGS_EQUAL_TEXT(2, r.status, option);
        CHECK_TEXT(r.err.find(std::string(option) + " does not apply") != std::string::npos, option);
    }
}

TEST(BurstsimCli, SmallSlips)
{
    TempTrace t(kTrace);
    Run csv = invoke({"--trace", t.path(), "--format", "csv"});
    LONGS_EQUAL(2, csv.status); // a bad command line
    CHECK(csv.err.find("expected swf, sacct or auto") != std::string::npos);

    Run help = invoke({"--help"});
    LONGS_EQUAL(0, help.status);
    CHECK(help.out.find("usage: burstsim") != std::string::npos);

    Run nogroup = invoke({"--trace", t.path(), "--compare", "never,always"});
    LONGS_EQUAL(0, nogroup.status);
    CHECK(nogroup.err.find("warning: no --group") != std::string::npos);
    Run never = invoke({"--trace", t.path(), "--policy", "never"});
    CHECK(never.err.find("warning") == std::string::npos);

    std::string many = "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 100 -1 1 1 1 1 -1 -1 -1 -1\n";
    for (int i = 0; i < 25; ++i)
        many += "2 0 0\n";
    TempTrace bad(many);
    CHECK(invoke({"--trace", bad.path()}).err.find("25 of its 26 records are malformed") != std::string::npos);
    CHECK(invoke({"--trace", bad.path(), "--skip-malformed"}).err.find("and 5 more") != std::string::npos);
    Run all = invoke({"--trace", bad.path(), "--all-problems", "--skip-malformed"});
    CHECK(all.err.find("more") == std::string::npos);
    CHECK(all.err.find(bad.path() + ":27:") != std::string::npos);
}

TEST(BurstsimCli, ChecksThePlotPathBeforeTheRun)
{
    TempTrace t(kTrace);
    Run r = invoke({"--trace", t.path(), "--policy", "never", "--plot", "/nonexistent-dir/out.svg"});
    LONGS_EQUAL(1, r.status);
    CHECK(r.err.find("cannot write /nonexistent-dir/out.svg") != std::string::npos);
    CHECK(r.out.empty()); // no table: nothing ran
}

TEST(BurstsimCli, ParamKeysAreCaseInsensitiveAndDurationsTakeUnits)
{
    TempTrace t(kTrace);
    LONGS_EQUAL(0, invoke({"--trace", t.path(), "--group", "g,cpus=2,price=0,boot=120,max=4", "--policy", "threshold", "--param",
                           "Target_Utilization=0.5", "--param", "stabilization=5m"})
                       .status);
    LONGS_EQUAL(2, invoke({"--trace", t.path(), "--group", "g,cpus=2,price=0,boot=120,max=4", "--policy", "threshold", "--param",
                           "stabilization=5x"})
                       .status);
}

TEST(BurstsimCli, ReplaysAnSwfTraceWithEpochSubmitTimes)
{
    TempTrace t("; MaxProcs: 8\n"
                "1 1000000000 0 3600 8 -1 -1 8 3600 -1 1 1 1 1 1 -1 -1 -1\n"
                "2 1000000010 -1 1800 4 -1 -1 4 3600 -1 1 2 2 1 1 -1 -1 -1\n"
                "3 1000000020 -1 1800 4 -1 -1 4 3600 -1 1 2 2 1 1 -1 -1 -1\n");
    Run r = invoke({"--trace", t.path(), "--policy", "never"});
    LONGS_EQUAL_TEXT(0, r.status, r.err.c_str());
    CHECK_TEXT(r.err.find("3 jobs from 4 lines") != std::string::npos, r.err.c_str());
    CHECK_TEXT(r.err.find("0 malformed") != std::string::npos, r.err.c_str());
}

TEST(BurstsimCli, ASingleRunStatesItsOwnLambda)
{
    TempTrace t(kTrace);
    Run r = invoke({"--trace", t.path(), "--group", "g,cpus=2,price=3.6,boot=30,max=4", "--policy", "predictive",
                    "--lambda", "1,5"});
    LONGS_EQUAL_TEXT(0, r.status, r.err.c_str());
    const auto second_row = r.out.find("predictive(lambda=5)");
    CHECK(second_row != std::string::npos);
    CHECK_TEXT(r.out.find("lambda 1 per waiting core-hour") < second_row, r.out.c_str());
    CHECK_TEXT(r.out.find("lambda 5 per waiting core-hour", second_row) != std::string::npos, r.out.c_str());
    // A run that does not depend on λ states the λ its J columns are at.
    Run never = invoke({"--trace", t.path(), "--policy", "never", "--lambda", "0.5,2"});
    CHECK_TEXT(never.out.find("lambda 0.5, 2 per waiting core-hour") != std::string::npos, never.out.c_str());
}

TEST(BurstsimCli, ASweptPolicyIsGivenItsLambdaUnrounded)
{
    TempTrace t(kTrace);
    Run r = invoke({"--trace", t.path(), "--group", "g,cpus=2,price=3.6,boot=30,max=4", "--policy", "predictive",
                    "--lambda", "1e-7"});
    LONGS_EQUAL_TEXT(0, r.status, r.err.c_str());
    CHECK_TEXT(r.out.find("lambda 1e-07 per waiting core-hour") != std::string::npos, r.out.c_str());
}

TEST(BurstsimCli, NumberBoundsReadAsWritten)
{
    TempTrace t(kTrace);
    Run rate = invoke({"--workflow", t.path(), "--workflow-rate", "0", "--local-cores", "4"});
    LONGS_EQUAL(2, rate.status);
    CHECK_TEXT(rate.err.find("--workflow-rate '0': expected a number > 0\n") != std::string::npos, rate.err.c_str());
    Run tau = invoke({"--trace", t.path(), "--tau", "0"});
    LONGS_EQUAL(2, tau.status);
    CHECK_TEXT(tau.err.find("--tau '0': expected a number >= 0.001\n") != std::string::npos, tau.err.c_str());
}

TEST(BurstsimCli, AnUnscopedParamGoesToEveryPolicyThatHasIt)
{
    TempTrace t(kTrace);
    const std::vector<std::string> site = {"--trace", t.path(), "--group", "g,cpus=2,price=3.6,boot=30,max=4",
                                           "--compare", "never,always,forecast", "--lambda", "1,5"};
    auto with = [&](std::vector<std::string> more) {
        std::vector<std::string> args = site;
        args.insert(args.end(), more.begin(), more.end());
        return invoke(args);
    };
    Run lambda = with({"--param", "lambda=2"});
    LONGS_EQUAL_TEXT(0, lambda.status, lambda.err.c_str());
    // forecast takes the given λ instead of one run per --lambda value.
    CHECK(lambda.out.find("forecast(lambda=") == std::string::npos);
    CHECK(lambda.out.find("\nforecast ") != std::string::npos);
    LONGS_EQUAL_TEXT(0, with({"--param", "expander=price"}).status, "expander");
    Run nobody = with({"--param", "colour=red"});
    LONGS_EQUAL(2, nobody.status);
    CHECK_TEXT(nobody.err.find("--param colour=red: no policy of this run has a parameter 'colour' "
                               "(run: never, always, forecast)") != std::string::npos,
               nobody.err.c_str());
    // A scoped parameter stays strict.
    Run scoped = with({"--param", "never:lambda=2"});
    LONGS_EQUAL(2, scoped.status);
    CHECK_TEXT(scoped.err.find("policy never: unknown parameter(s) lambda") != std::string::npos,
               scoped.err.c_str());
    // fixed-delay of --tune-delay is a policy of the run too.
    LONGS_EQUAL(0, invoke({"--trace", t.path(), "--group", "g,cpus=2,price=0,boot=120,max=4", "--tune-delay", "--delay-grid", "0",
                           "--param", "lambda=2", "--compare", "never,predictive"})
                       .status);
}

TEST(BurstsimCli, GivesJobsWithoutALimitTheDefaultTime)
{
    // Jobs 1 and 2 give no limit (-1); job 3 asks for 100 s.  With
    // --default-time 60 jobs 1 and 2 get 60 s, and job 2 (100 s) is cut
    // there, as Slurm ends a job at its partition's DefaultTime.
    TempTrace t("; MaxProcs: 4\n"
                "1 0 0 50 2 -1 -1 2 -1 -1 1 1 1 1 -1 -1 -1 -1\n"
                "2 0 0 100 2 -1 -1 2 -1 -1 1 1 1 1 -1 -1 -1 -1\n"
                "3 0 0 100 2 -1 -1 2 100 -1 1 1 1 1 -1 -1 -1 -1\n");
    Run r = invoke({"--trace", t.path(), "--policy", "never", "--default-time", "60"});
    LONGS_EQUAL(0, r.status);
    CHECK(r.err.find("default time limit 60 s given to 2 job(s)") != std::string::npos);
    CHECK(r.out.find("runtimes cut at their limit 1") != std::string::npos);
    LONGS_EQUAL(2, invoke({"--trace", t.path(), "--policy", "never", "--default-time", "0"}).status);
}

TEST(BurstsimCli, AGroupsMaxTimeKeepsLongerJobsLocal)
{
    // Job 1 fills the two local cores for 1000 s.  Job 2 (limit 200 s) and
    // job 3 (limit 5000 s) wait; with the cloud partition's MaxTime 600 s
    // only job 2 may burst, and job 3 waits for job 1.
    TempTrace t("; MaxProcs: 2\n"
                "1 0 0 1000 2 -1 -1 2 1000 -1 1 1 1 1 -1 -1 -1 -1\n"
                "2 0 0 100 2 -1 -1 2 200 -1 1 1 1 1 -1 -1 -1 -1\n"
                "3 0 0 100 2 -1 -1 2 5000 -1 1 1 1 1 -1 -1 -1 -1\n");
    const std::string group = "aws,cpus=2,price=1,boot=10,max=4";
    Run unlimited = invoke({"--trace", t.path(), "--policy", "always", "--group", group});
    LONGS_EQUAL(0, unlimited.status);
    DOUBLES_EQUAL(2, cell(unlimited.out, "always", "cloud"), 0);
    Run limited = invoke({"--trace", t.path(), "--policy", "always", "--group", group + ",max_time=600"});
    LONGS_EQUAL(0, limited.status);
    DOUBLES_EQUAL(1, cell(limited.out, "always", "cloud"), 0);
    // The policy did not ask for it either: no route was refused.
    CHECK(limited.out.find("actions applied 1, rejected 0") != std::string::npos);
}

namespace {

// A site whose two groups are cheap and dear; Slurm's file is beside it.
std::string site_conf(const std::string& slurm_conf, const std::string& policies, const std::string& extra = "")
{
    return "ClusterName=sim\nSlurmConf=" + slurm_conf + "\nCycleInterval=60\n"
           "Provider=box Type=local\n"
           "NodeGroup=cheap Provider=box Nodes=c[1-4] Partition=cheap Cpus=2 PricePerHour=0.36 BootTime=30\n"
           "NodeGroup=dear Provider=box Nodes=d[1-4] Partition=dear Cpus=2 PricePerHour=36 BootTime=30\n" +
           policies + extra;
}

} // namespace

TEST(BurstsimCli, ConfigReplaysTheSitesGroupsAndItsChainAsOneRow)
{
    TempTrace t(kTrace);
    TempTrace slurm("SuspendTime=60\n", ".conf");
    TempTrace conf(site_conf(slurm.path(), "Policy=boot-window\nPolicy=always expander=price\n"), ".conf");
    Run r = invoke({"--trace", t.path(), "--config", conf.path()});
    LONGS_EQUAL(0, r.status);
    // One row for the chain, named by its links; jobs 2 and 3 burst, to the
    // cheap group always's price expander picks.
    CHECK(cell(r.out, "boot-window+always", "cloud") >= 1);
    CHECK(r.out.find("cost by account") == std::string::npos || r.out.find("dear") == std::string::npos);
    CHECK(r.err.find("warning") == std::string::npos);

    // --policy replaces the chain, and --group a group of the same name.
    Run flags = invoke({"--trace", t.path(), "--config", conf.path(), "--policy", "never", "--group",
                        "cheap,cpus=2,price=0.72,boot=30,max=4"});
    LONGS_EQUAL(0, flags.status);
    DOUBLES_EQUAL(0, cell(flags.out, "never", "cloud"), 1e-9);
}

TEST(BurstsimCli, ConfigTakesTheGroupsPartitionMaxTimeFromSlurmConf)
{
    // As AGroupsMaxTimeKeepsLongerJobsLocal: with MaxTime 10 minutes on both
    // cloud partitions only job 2 (limit 200 s) bursts.
    TempTrace t("; MaxProcs: 2\n"
                "1 0 0 1000 2 -1 -1 2 1000 -1 1 1 1 1 -1 -1 -1 -1\n"
                "2 0 0 100 2 -1 -1 2 200 -1 1 1 1 1 -1 -1 -1 -1\n"
                "3 0 0 100 2 -1 -1 2 5000 -1 1 1 1 1 -1 -1 -1 -1\n");
    TempTrace slurm("PartitionName=DEFAULT MaxTime=10\nPartitionName=cheap Nodes=c[1-4]\n"
                    "PartitionName=dear Nodes=d[1-4]\n",
                    ".conf");
    TempTrace conf(site_conf(slurm.path(), "Policy=always\n"), ".conf");
    Run r = invoke({"--trace", t.path(), "--config", conf.path()});
    LONGS_EQUAL(0, r.status);
    DOUBLES_EQUAL(1, cell(r.out, "always", "cloud"), 0);
    // A --group of the same name with max_time= takes its place.
    Run longer = invoke({"--trace", t.path(), "--config", conf.path(), "--group",
                         "cheap,cpus=2,price=0.36,boot=30,max=4,max_time=86400", "--group",
                         "dear,cpus=2,price=36,boot=30,max=4,max_time=86400"});
    LONGS_EQUAL(0, longer.status);
    DOUBLES_EQUAL(2, cell(longer.out, "always", "cloud"), 0);
}

TEST(BurstsimCli, ConfigNamesWhatItCannotReplayInAWarning)
{
    TempTrace t(kTrace);
    TempTrace conf(site_conf("/nonexistent/slurm.conf", "Policy=always\n",
                             "NodeGroup=spot Provider=box Nodes=s[1-2] Partition=spot Cpus=2 PricePerHour=0.1 "
                             "Spot=yes InstanceTypes=a,b\nEarlyLaunch=0\n"),
                   ".conf");
    Run r = invoke({"--trace", t.path(), "--config", conf.path()});
    LONGS_EQUAL(0, r.status);
    CHECK(r.err.find("NodeGroup=spot: Spot=yes: no interruptions are drawn") != std::string::npos);
    CHECK(r.err.find("NodeGroup=spot: its zones and fallback instance types are replayed as one pool") !=
          std::string::npos);
    CHECK(r.err.find(conf.path() + ":8: NodeGroup=spot") != std::string::npos);
    CHECK(r.err.find("EarlyLaunch=0") != std::string::npos);
    CHECK(r.err.find("SlurmConf: /nonexistent/slurm.conf: cannot be read") != std::string::npos);
    // --suspend-time says what slurm.conf would have: no warning about it then.
    Run given = invoke({"--trace", t.path(), "--config", conf.path(), "--suspend-time", "120"});
    CHECK(given.err.find("SlurmConf") == std::string::npos);
}

TEST(BurstsimCli, ConfigRunsTheShippedExample)
{
    TempTrace t(kTrace);
    Run r = invoke({"--trace", t.path(), "--config", std::string(TEST_SRCDIR) + "/conf/burstd.conf.example"});
    LONGS_EQUAL(0, r.status);
    CHECK(r.out.find("forecast ") != std::string::npos);
    CHECK(r.out.find("Budget=* Amount=200 Interval=1d") != std::string::npos);
}

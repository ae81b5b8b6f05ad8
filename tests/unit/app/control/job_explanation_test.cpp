#include "app/control/job_explanation.hpp"

#include "common/json_fields.hpp"
#include "common/json_ref.hpp"
#include "policy/threads/thread_allocator_registry.hpp"

#include <limits>
#include <sstream>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

Job pending_job(JobId id, std::vector<std::string> partitions, BurstOption burst = BurstOption::Allow)
{
    Job j;
    j.id = id;
    j.cpus = 4;
    j.user = "ann";
    j.account = "bio";
    j.burst = burst;
    j.reason = "Resources";
    j.partitions = std::move(partitions);
    return j;
}

} // namespace

TEST_GROUP(JobExplanation)
{
    Snapshot snapshot;
    CycleOutcome outcome;
    std::vector<BudgetStanding> budgets;
    std::vector<NodeGroup> groups;
    ExplanationInput in;

    void setup() override
    {
        NodeGroup g;
        g.name = "aws";
        g.partition = "cloud";
        g.cpus = 4;
        g.nodes = {"c1", "c2"};
        groups = {g};
        Node c1;
        c1.name = "c1";
        c1.cpus = 4;
        c1.flags = kNodeCloud | kNodePoweredDown;
        snapshot.nodes = {c1};
        snapshot.time = 1000;
        outcome.time = 1001;
        in.snapshot = &snapshot;
        in.outcome = &outcome;
        in.chain = {"forecast", "always"};
        in.budgets = &budgets;
        in.groups = &groups;
        in.now = 1002;
    }

    JsonRef explain(JobId id, std::string& error)
    {
        JsonRef out(json_object());
        error = explain_job(id, in, out.get());
        return out;
    }
};

TEST(JobExplanation, GivesEachLinksVerdictInNumbers)
{
    snapshot.jobs = {pending_job(7, {"local"})};
    outcome.verdicts.push_back(
        CycleVerdict{"forecast", JobVerdict{7, false, "aws", 2100, 0.93, 0.41,
                                            "kept local: waiting is expected to cost less than the cloud"}});
    outcome.notes.push_back(CycleNote{"always", "1 waiting job(s) fit nowhere", false});
    budgets.push_back(BudgetStanding{"bio", BudgetLimit{"bio", 10, 86400}, 2.5, 1.5, ""});
    std::string error;
    JsonRef e = explain(7, error);
    STRCMP_EQUAL("", error.c_str());
    json_t* forecast = json_array_get(json_object_get(e.get(), "links"), 0);
    json_t* verdict = json_object_get(forecast, "verdict");
    DOUBLES_EQUAL(2100, json_real_value(json_object_get(verdict, "local_start_in")), 1e-9);
    DOUBLES_EQUAL(0.93, json_real_value(json_object_get(verdict, "cloud_cost")), 1e-9);
    DOUBLES_EQUAL(0.41, json_real_value(json_object_get(verdict, "waiting_cost")), 1e-9);
    DOUBLES_EQUAL(6, json_real_value(json_object_get(json_object_get(e.get(), "budget"), "left")), 1e-9);
    STRCMP_EQUAL("forecast: kept local: waiting is expected to cost less than the cloud; expected local start in "
                 "35 min; waiting costs 0.41, the cloud 0.93 in aws",
                 string_field(e.get(), "summary").c_str());
    json_t* aws = json_array_get(json_object_get(e.get(), "groups"), 0);
    LONGS_EQUAL(1, json_integer_value(json_object_get(aws, "powered_down")));
    STRCMP_EQUAL("hiring", string_field(aws, "health").c_str());
    std::ostringstream text;
    write_explanation_text(text, e.get());
    STRCMP_CONTAINS("job 7 (ann, account bio): PENDING (Resources), 4 cpus, --burst=allow, partitions local",
                    text.str().c_str());
    STRCMP_CONTAINS("budget: Budget=bio Amount=10 Interval=86400s: spent 2.50, committed 1.50, left 6.00",
                    text.str().c_str());
    STRCMP_CONTAINS("always: 1 waiting job(s) fit nowhere", text.str().c_str());
}

TEST(JobExplanation, ALocalStartNotForeseenIsNullNotMissing)
{
    snapshot.jobs = {pending_job(7, {"local"})};
    const double never = std::numeric_limits<double>::infinity();
    outcome.verdicts.push_back(CycleVerdict{
        "forecast", JobVerdict{7, true, "aws", never, 0.01, never, "bursts: waiting is expected to cost more"}});
    std::string error;
    JsonRef e = explain(7, error);
    json_t* verdict = json_object_get(json_array_get(json_object_get(e.get(), "links"), 0), "verdict");
    CHECK(json_is_null(json_object_get(verdict, "local_start_in")));
    CHECK(json_is_null(json_object_get(verdict, "waiting_cost")));
    std::ostringstream text;
    write_explanation_text(text, e.get());
    STRCMP_CONTAINS("no local start foreseen; waiting unbounded; cloud 0.01 (aws)", text.str().c_str());
    STRCMP_CONTAINS("; no local start foreseen;", string_field(e.get(), "summary").c_str());
}

TEST(JobExplanation, SaysWhatTheLastActionAboutTheJobDid)
{
    snapshot.jobs = {pending_job(8, {"local"})};
    outcome.actions.push_back(
        CycleAction{"always", Action{RouteToCloud{8, "aws"}, "cannot start on local nodes now"}, ""});
    std::string error;
    JsonRef e = explain(8, error);
    STRCMP_EQUAL("always: route job 8 to group aws: cannot start on local nodes now",
                 string_field(e.get(), "summary").c_str());
}

TEST(JobExplanation, NamesTheUsersOptOutAndTheBlocksNoNodeSettles)
{
    snapshot.jobs = {pending_job(9, {"local"}, BurstOption::Never), pending_job(10, {"local"})};
    snapshot.jobs[1].reason = "Dependency";
    std::string error;
    STRCMP_EQUAL("tagged --burst=never: it runs on local nodes only",
                 string_field(explain(9, error).get(), "summary").c_str());
    STRCMP_EQUAL("waiting for Dependency, which no node settles: no policy bursts it until then",
                 string_field(explain(10, error).get(), "summary").c_str());
}

TEST(JobExplanation, RefusesAJobItHasNotSeen)
{
    std::string error;
    explain(99, error);
    STRCMP_EQUAL("explain: job 99 is not in burstd's last snapshot (it ended, or is not exported yet)",
                 error.c_str());
}

namespace {

// Category 00000000000000aa: c = 0.75, 20 min single-threaded, 8 runs at 1-8 threads.
ScalingBook scaling_of_aa()
{
    ScalingBook book;
    for (std::uint32_t t : {1u, 2u, 4u, 8u, 1u, 2u, 4u, 8u}) {
        JobEnd e;
        e.category = "00000000000000aa";
        e.cpus_per_task = t;
        e.elapsed = 1200 * (0.75 / t + 0.25);
        e.state = "COMPLETED";
        book.observe(e);
    }
    return book;
}

} // namespace

TEST(JobExplanation, SaysWhatTheCategorysRunsTellOfItsThreads)
{
    snapshot.jobs = {pending_job(7, {"local"})};
    snapshot.jobs[0].category = "00000000000000aa";
    ScalingBook book = scaling_of_aa();
    in.scaling = &book;
    std::string error;
    JsonRef e = explain(7, error);
    json_t* threads = json_object_get(e.get(), "threads");
    CHECK(json_is_true(json_object_get(threads, "known")));
    DOUBLES_EQUAL(0.75, json_real_value(json_object_get(threads, "c")), 1e-9);
    std::ostringstream text;
    write_explanation_text(text, e.get());
    STRCMP_CONTAINS("threads: category 00000000000000aa: scalable share 0.75 +- 0.00, 20 min single-threaded, from "
                    "7.98 completed runs at 4 thread count(s) (known)\n"
                    "    asked nothing, has 1 CPU(s) per task\n",
                    text.str().c_str());
}

TEST(JobExplanation, SaysWhatTheThreadPolicyChoseAndWhatEachCountWouldTake)
{
    snapshot.jobs = {pending_job(7, {"local"})};
    snapshot.jobs[0].category = "00000000000000aa";
    snapshot.jobs[0].threads.automatic = true;
    ScalingBook book = scaling_of_aa();
    const auto stage = make_thread_stage("greedy", PolicyParams(std::map<std::string, std::string>{{"counts", "1,2,4"}}));
    outcome.actions.push_back(
        CycleAction{"threads:greedy", Action{SetJobThreads{7, 4, 4}, "cheaper on idle local cores"}, ""});
    in.scaling = &book;
    in.threads = stage.get();
    std::string error;
    JsonRef e = explain(7, error);
    std::ostringstream text;
    write_explanation_text(text, e.get());
    STRCMP_CONTAINS("    asked auto, has 1 CPU(s) per task\n"
                    "    expected run time by CPUs per task: 1: 20 min, 2: 12 min, 4: 8 min\n"
                    "    threads:greedy: job 7: 4 cpus per task, 4 cpus: cheaper on idle local cores\n",
                    text.str().c_str());
}

#include "sim/workload/workflow_arrivals.hpp"
#include "sim/report/workflow_metrics.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

// a(10) → b(20), a → c(5)
Workflow fork(const std::string& name)
{
    Workflow w;
    w.name = name;
    w.tasks = {{"a", "ta", 10, 1, {}, ""}, {"b", "tb", 20, 2, {0}, ""}, {"c", "tc", 5, 1, {0}, ""}};
    return w;
}

} // namespace

TEST_GROUP(WorkflowArrivals){};

TEST(WorkflowArrivals, EveryArrivalBecomesJobsWithParentsAccountsAndCategories)
{
    WorkflowArrivals o;
    o.count = 4;
    o.rate_per_hour = 60;
    o.accounts = {"u1", "u2"};
    Trace t = workflow_trace({fork("f")}, o);
    LONGS_EQUAL(12, t.jobs.size());
    LONGS_EQUAL(12, t.report.jobs);
    for (std::size_t k = 0; k < 4; ++k) {
        const TraceJob& a = t.jobs[3 * k];
        const TraceJob& b = t.jobs[3 * k + 1];
        LONGS_EQUAL(3 * k + 1, a.id);
        CHECK(a.parents.empty());
        LONGS_EQUAL(1, b.parents.size());
        LONGS_EQUAL(a.id, b.parents[0]);
        LONGS_EQUAL(2, b.cpus);
        DOUBLES_EQUAL(20, b.runtime, 0);
        DOUBLES_EQUAL(a.submit, b.submit, 0);
        STRCMP_EQUAL(k % 2 ? "u2" : "u1", a.account.c_str());
        STRCMP_EQUAL("f:tb", b.category.text().c_str());
        STRCMP_EQUAL((std::to_string(k + 1) + ":f").c_str(), a.workflow.c_str());
    }
    DOUBLES_EQUAL(0, t.jobs[0].submit, 0);
}

TEST(WorkflowArrivals, GapsArePoissonAtTheRateAndDeterministicForASeed)
{
    WorkflowArrivals o;
    o.count = 4000;
    o.rate_per_hour = 12; // mean gap 300 s
    o.seed = 7;
    Trace t = workflow_trace({fork("f"), fork("g")}, o);
    const double mean_gap = t.jobs.back().submit / (o.count - 1);
    DOUBLES_EQUAL(300, mean_gap, 15); // ≈ 3 standard errors of 300/sqrt(4000)
    std::size_t g = 0;
    for (std::size_t k = 0; k < o.count; ++k)
        g += t.jobs[3 * k].category.text()[0] == 'g';
    CHECK(g > 1800 && g < 2200); // both workflows drawn about equally
    Trace again = workflow_trace({fork("f"), fork("g")}, o);
    DOUBLES_EQUAL(t.jobs.back().submit, again.jobs.back().submit, 0);
    o.seed = 8;
    CHECK(workflow_trace({fork("f"), fork("g")}, o).jobs.back().submit != t.jobs.back().submit);
}

TEST(WorkflowArrivals, RejectsNoWorkflowsBadRatesAndNoAccounts)
{
    WorkflowArrivals o;
    CHECK_THROWS(WorkflowError, workflow_trace({}, o));
    o.rate_per_hour = 0;
    CHECK_THROWS(WorkflowError, workflow_trace({fork("f")}, o));
    o.rate_per_hour = 1;
    o.accounts.clear();
    CHECK_THROWS(WorkflowError, workflow_trace({fork("f")}, o));
}

TEST(WorkflowArrivals, WorkflowSlowdownIsResponseOverTheCriticalPath)
{
    WorkflowArrivals o;
    o.count = 2;
    Trace t = workflow_trace({fork("f")}, o);
    SimResult r;
    const Time s1 = t.jobs[3].submit;
    // First copy: ran as fast as its critical path (30 s); second: took 90 s.
    // (id, account, cpus, submit, eligible, start, end, group)
    r.jobs = {{1, "wf", 1, 0, 0, 0, 10, -1},         {2, "wf", 2, 0, 10, 10, 30, -1},
              {3, "wf", 1, 0, 10, 10, 15, -1},       {4, "wf", 1, s1, s1, s1 + 60, s1 + 70, -1},
              {5, "wf", 2, s1, s1 + 70, s1 + 70, s1 + 90, -1}};
    WorkflowMetrics m = workflow_metrics(t.jobs, r);
    LONGS_EQUAL(1, m.workflows); // the second copy's task 6 never ran
    DOUBLES_EQUAL(1, m.mean_slowdown, 1e-9);
    r.jobs.push_back({6, "wf", 1, s1, s1 + 70, s1 + 80, s1 + 85, -1});
    m = workflow_metrics(t.jobs, r);
    LONGS_EQUAL(2, m.workflows);
    DOUBLES_EQUAL((1 + 3) / 2.0, m.mean_slowdown, 1e-9);
    DOUBLES_EQUAL((30 + 90) / 2.0, m.mean_response, 1e-9);
}

#include "sim/trace/trace_interactive.hpp"

#include <cstdint>
#include <vector>

#include "sim/sim_fixtures.hpp"

using namespace burst;
using namespace burst::test;

TEST_GROUP(TraceInteractive){};

TEST(TraceInteractive, OnlySessionShapedJobsAreMadeInteractive)
{
    std::vector<TraceJob> jobs{trace_job(1, 0, kInteractiveMaxCpus, kInteractiveMaxRuntime),
                               trace_job(2, 0, kInteractiveMaxCpus + 1, 60),
                               trace_job(3, 0, 1, kInteractiveMaxRuntime + 1), trace_job(4, 0, 1, 60),
                               trace_job(5, 0, 1, 60)};
    jobs[3].parents = {1};
    jobs[4].scaling = TraceScaling{0.5, 1, true, 0};
    const TraceInteractiveReport report = give_interactive(jobs, 1);
    LONGS_EQUAL(1, report.candidates);
    LONGS_EQUAL(1, report.interactive);
    CHECK(jobs[0].interactive);
    for (std::size_t j = 1; j < jobs.size(); ++j)
        CHECK(!jobs[j].interactive);
}

// A job is picked by its id, not by its place or submission: the same
// jobs whatever else the trace holds, and a larger share adds to them.
TEST(TraceInteractive, TheShareIsPickedByIdAndGrowsWithIt)
{
    std::vector<TraceJob> jobs;
    for (JobId id = 1; id <= 10000; ++id)
        jobs.push_back(trace_job(id, Time(id), 1, 600));
    std::vector<TraceJob> reversed(jobs.rbegin(), jobs.rend());
    for (auto& job : reversed)
        job.submit = 0;
    std::vector<TraceJob> wider = jobs;
    const TraceInteractiveReport report = give_interactive(jobs, 0.1);
    LONGS_EQUAL(10000, report.candidates);
    CHECK(report.interactive > 900 && report.interactive < 1100);
    give_interactive(reversed, 0.1);
    for (std::size_t j = 0; j < jobs.size(); ++j)
        CHECK_EQUAL(jobs[j].interactive, reversed[jobs.size() - 1 - j].interactive);
    const TraceInteractiveReport more = give_interactive(wider, 0.2);
    CHECK(more.interactive > 1900 && more.interactive < 2100);
    for (std::size_t j = 0; j < jobs.size(); ++j)
        CHECK(!jobs[j].interactive || wider[j].interactive);
}

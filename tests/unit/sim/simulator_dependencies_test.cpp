#include "policy/never_policy.hpp"
#include "sim/simulator.hpp"

#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

const JobOutcome& outcome(const SimResult& r, JobId id)
{
    for (const auto& o : r.jobs)
        if (o.id == id)
            return o;
    FAIL("job not in result");
    return r.jobs.front();
}

TraceJob job(JobId id, Seconds runtime, std::vector<JobId> after = {})
{
    TraceJob j;
    j.id = id;
    j.cpus = 1;
    j.runtime = runtime;
    j.depends_on = std::move(after);
    return j;
}

SimConfig tiny_site(std::uint32_t cores)
{
    SimConfig c;
    c.local_cores = cores;
    c.local_node_cores = 1;
    c.cycle = 10;
    return c;
}

} // namespace

TEST_GROUP(SimulatorDependencies){};

TEST(SimulatorDependencies, AJobIsSubmittedWhenItsLastDependencyEnds)
{
    PolicyParams none;
    NeverPolicy never(none);
    // 2 cores: 1 and 2 run at once; 3 needs both; 4 is independent and queued first.
    std::vector<TraceJob> trace{job(1, 100), job(2, 50), job(3, 10, {1, 2}), job(4, 500)};
    trace[3].submit = 5;
    SimResult r = simulate(tiny_site(2), trace, never);
    DOUBLES_EQUAL(100, outcome(r, 3).submit, 0); // released when job 1 (the later one) ended
    // Job 4 arrived at 5, before job 3 was released: FCFS runs it first (at 50).
    DOUBLES_EQUAL(50, outcome(r, 4).start, 0);
    DOUBLES_EQUAL(100, outcome(r, 3).start, 0);
    DOUBLES_EQUAL(110, outcome(r, 3).end, 0);
}

TEST(SimulatorDependencies, CyclesAndUnknownJobsAreRejected)
{
    PolicyParams none;
    NeverPolicy never(none);
    CHECK_THROWS(SimConfigError, simulate(tiny_site(2), {job(1, 10, {2}), job(2, 10, {1}), job(3, 10)}, never));
    CHECK_THROWS(SimConfigError, simulate(tiny_site(2), {job(1, 10, {9})}, never));
    // A dependency on a job too wide to replay counts as met.
    std::vector<TraceJob> trace{job(1, 10), job(2, 10, {1})};
    trace[0].cpus = 8;
    SimResult r = simulate(tiny_site(2), trace, never);
    LONGS_EQUAL(1, r.jobs.size());
    LONGS_EQUAL(1, r.jobs_too_wide);
}

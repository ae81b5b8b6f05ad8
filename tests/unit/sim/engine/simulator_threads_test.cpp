// Thread counts in the replay: a thread policy's SetJobThreads changes a
// pending --threads=auto job's CPUs and run time (T(t) = E·(c/t + 1 − c)),
// a new auto job takes the advice at submission, and the runs teach the
// cycle's scaling book as burstd's job ends do.

#include "policy/cycle/decision_cycle.hpp"
#include "policy/hiring/never/never_policy.hpp"
#include "policy/threads/thread_allocator_registry.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/trace/trace_scaling.hpp"

#include "sim/sim_fixtures.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;
using namespace burst::test;

namespace {

// One task of category "scal": c = 0.9, E = 1000 s.
TraceJob scalable(JobId id, Time submit, std::uint32_t threads = 1, bool automatic = true)
{
    TraceJob j = trace_job(id, submit, threads, 1000 * (0.9 / threads + 0.1));
    j.category = "scal";
    j.scaling = TraceScaling{0.9, threads, automatic, 0};
    return j;
}

// A never-hiring chain with a greedy thread step (λ = 1, local cores free),
// its book taught c = 0.9, E = 1000 s unless `taught` is false.
DecisionCycle greedy_cycle(bool taught = true, std::map<std::string, std::string> params = {{"counts", "1,2,4,8"}})
{
    PolicyChain chain;
    PolicyParams none;
    chain.push_back(std::make_unique<NeverPolicy>(none));
    DecisionCycle cycle(std::move(chain), make_thread_stage("greedy", PolicyParams(params)));
    if (taught)
        for (int round = 0; round < 3; ++round)
            for (std::uint32_t t : {1u, 2u, 4u, 8u}) {
                JobEnd e;
                e.category = "scal";
                e.cpus = e.cpus_per_task = t;
                e.elapsed = 1000 * (0.9 / t + 0.1);
                e.state = "COMPLETED";
                cycle.observe(e);
            }
    return cycle;
}

} // namespace

TEST_GROUP(SimulatorThreads){};

// It waits behind a job that holds every core, so every count would wait
// at λ per core-hour: J is lowest at 4 threads, and it runs 1000·(0.9/4 + 0.1) s.
TEST(SimulatorThreads, AWaitingAutoJobRunsWithTheCountTheThreadPolicyGivesIt)
{
    SimConfig site = local_site(8, 8, 60);
    std::vector<TraceJob> trace{trace_job(1, 0, 8, 100), scalable(2, 0)};
    DecisionCycle cycle = greedy_cycle();
    const SimResult r = simulate(site, trace, cycle);
    LONGS_EQUAL(4, outcome(r, 2).cpus);
    DOUBLES_EQUAL(100, outcome(r, 2).start, 0);
    DOUBLES_EQUAL(1000 * (0.9 / 4 + 0.1), outcome(r, 2).end - outcome(r, 2).start, 1e-6);
    CHECK(r.threads_set >= 1);
}

TEST(SimulatorThreads, ANewAutoJobTakesTheAdviceAtSubmission)
{
    SimConfig site = local_site(8, 8, 60);
    // The first cycle (at 0) makes the advice; job 2 comes later and starts at once.
    std::vector<TraceJob> trace{scalable(1, 0, 1, false), scalable(2, 30)};
    DecisionCycle cycle = greedy_cycle();
    const SimResult r = simulate(site, trace, cycle);
    LONGS_EQUAL(1, outcome(r, 1).cpus); // asked for one CPU: left alone
    LONGS_EQUAL(4, outcome(r, 2).cpus); // 7 cores idle: 4 is the widest allowed count that fits
    DOUBLES_EQUAL(30, outcome(r, 2).start, 0);
    LONGS_EQUAL(1, r.threads_advised);
}

TEST(SimulatorThreads, AJobWithoutAutoThreadsKeepsWhatItAskedFor)
{
    SimConfig site = local_site(8, 8, 60);
    std::vector<TraceJob> trace{trace_job(1, 0, 8, 100), scalable(2, 0, 2, false)};
    DecisionCycle cycle = greedy_cycle();
    const SimResult r = simulate(site, trace, cycle);
    LONGS_EQUAL(2, outcome(r, 2).cpus);
    DOUBLES_EQUAL(1000 * (0.9 / 2 + 0.1), outcome(r, 2).end - outcome(r, 2).start, 1e-6);
    LONGS_EQUAL(0, r.threads_set);
}

// Runs at two counts are what the book needs: the replay's job ends carry
// their CPUs per task, so the category becomes known with the trace's c.
TEST(SimulatorThreads, TheReplaysRunsTeachTheCategorysScaling)
{
    SimConfig site = local_site(64, 64, 60);
    std::vector<TraceJob> trace;
    for (JobId i = 0; i < 12; ++i)
        trace.push_back(scalable(i + 1, double(i) * 2000, i % 2 ? 4 : 1, false));
    DecisionCycle cycle = greedy_cycle(false);
    simulate(site, trace, cycle);
    const ScalingFit fit = cycle.scaling().fit("scal");
    CHECK(fit.known);
    DOUBLES_EQUAL(0.9, fit.c, 0.01);
}

TEST(SimulatorThreads, ATraceJobWhoseCpusAreNotWholeTasksIsRefused)
{
    SimConfig site = local_site(8, 8, 60);
    TraceJob odd = scalable(1, 0, 4);
    odd.cpus = 6;
    DecisionCycle cycle = greedy_cycle();
    CHECK_THROWS(SimConfigError, simulate(site, {odd}, cycle));
}

// A trace run at 4 threads took 1000·(0.9/4 + 0.1) s: E is 1000 s.
TEST(SimulatorThreads, TeachingATracesScalingGivesItsSingleThreadedTime)
{
    std::vector<TraceJob> trace{scalable(1, 0, 4), scalable(2, 0, 4)};
    ScalingBook book;
    teach_trace_scaling(book, trace);
    const ScalingFit fit = book.fit("scal");
    CHECK(fit.known);
    DOUBLES_EQUAL(0.9, fit.c, 1e-6);
    DOUBLES_EQUAL(1000, fit.time(1), 1e-6);
}

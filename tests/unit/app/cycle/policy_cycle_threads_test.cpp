#include "app/cycle/policy_cycle.hpp"

#include "app/cycle/policy_cycle_fakes.hpp"
#include "policy/threads/thread_allocator_registry.hpp"
#include "scratch_dir.hpp"

#include <sstream>

#include <CppUTest/TestHarness.h>

using namespace burst;
using namespace burst::test;

namespace {

// c = 0.9, E = 1000 s, at 1, 2, 4 and 8 threads, three times over.
std::vector<JobEnd> learning_runs()
{
    std::vector<JobEnd> ends;
    for (int round = 0; round < 3; ++round)
        for (std::uint32_t t : {1u, 2u, 4u, 8u}) {
            JobEnd e;
            e.id = JobId(100 + ends.size());
            e.category = "scal";
            e.cpus_per_task = t;
            e.cpus = t;
            e.elapsed = 1000 * (0.9 / t + 0.1);
            e.state = "COMPLETED";
            ends.push_back(e);
        }
    return ends;
}

Job auto_job(JobId id, std::uint32_t cpus_per_task = 1)
{
    Job j;
    j.id = id;
    j.cpus = cpus_per_task;
    j.cpus_per_task = cpus_per_task;
    j.category = "scal";
    j.threads.automatic = true;
    j.partitions = {"local"};
    return j;
}

} // namespace

TEST_GROUP(PolicyCycleThreads)
{
    test::ScratchDir scratch{"policy-cycle-threads-test"};
    std::string path = scratch.file("ledger.sqlite");
    std::ostringstream out;
    Logger log{out, LogLevel::Debug, false};
    ManualClock clock{1000};
    RecordingActuator actuator;
    BurstdConfig config;
    Snapshot snapshot;
    std::vector<std::map<std::string, std::uint32_t>> advice;

    void setup() override
    {
        Node n;
        n.name = "n1";
        n.cpus = 8;
        n.base = NodeBaseState::Idle;
        n.partitions = {"local"};
        snapshot.nodes = {n};
    }

    // A burstd with ThreadPolicy=greedy (its ledger, instances and cycle),
    // its advice kept in `advice`.
    struct Burstd {
        Ledger ledger;
        InstanceManager instances;
        PolicyCycle cycle;
        Burstd(TEST_GROUP_CppUTestGroupPolicyCycleThreads& t)
            : ledger(t.path),
              instances(instances_for({}, std::make_unique<NoProvider>(), ledger, t.actuator, t.clock, t.log)),
              cycle({}, ledger, t.actuator, instances, 1000, make_thread_stage("greedy", PolicyParams()))
        {
            cycle.set_advice_sink([&t](const std::map<std::string, std::uint32_t>& a) { t.advice.push_back(a); });
        }
    };
    void cycle(Burstd& b) { b.cycle.run(CycleContext{config, &snapshot, clock.now(), log}); }

    // `cycles` cycles of a new burstd, after `ends`.
    void run(const std::vector<JobEnd>& ends, int cycles = 1)
    {
        Burstd b(*this);
        for (const auto& e : ends)
            b.cycle.observe(e);
        for (int i = 0; i < cycles; ++i)
            cycle(b);
    }
};

TEST(PolicyCycleThreads, APendingAutoJobGetsItsCountInSlurmAndNewJobsGetAdvice)
{
    snapshot.jobs = {auto_job(1)};
    run(learning_runs());
    CHECK(actuator.calls == std::vector<std::string>{"job 1 1x8 cpus"});
    CHECK(out.str().find("decision: job 1: 8 cpus per task, 8 cpus: category scal scales with c 0.90") !=
          std::string::npos);
    LONGS_EQUAL(1, advice.size());
    // Job 1 takes the free cores: beyond them a core costs λ per hour, as waiting would.
    CHECK(advice[0] == (std::map<std::string, std::uint32_t>{{"scal", 4}}));
}

TEST(PolicyCycleThreads, AdviceIsSentWhenItChangesAndNowAndThenAgain)
{
    run(learning_runs(), int(PolicyCycle::kAdviceResendCycles) + 1);
    LONGS_EQUAL(2, advice.size());
    CHECK(advice[0] == (std::map<std::string, std::uint32_t>{{"scal", 8}}));
    CHECK(advice[1] == advice[0]);
}

TEST(PolicyCycleThreads, APluginThatSaysHelloGetsTheAdviceAtTheNextCycle)
{
    Burstd b(*this);
    for (const auto& e : learning_runs())
        b.cycle.observe(e);
    cycle(b);
    cycle(b);
    LONGS_EQUAL(1, advice.size());
    b.cycle.resend_advice(); // a restarted slurmctld's plugin connected
    cycle(b);
    LONGS_EQUAL(2, advice.size());
    CHECK(advice[1] == advice[0]);
}

TEST(PolicyCycleThreads, WhatWasLearnedBeforeARestartChoosesAfterIt)
{
    run(learning_runs()); // learned, kept in the ledger
    actuator.calls.clear();
    snapshot.jobs = {auto_job(1), auto_job(2, 2)};
    snapshot.jobs[1].threads.automatic = false; // the user's -c 2
    snapshot.jobs[1].threads.count = 2;
    run({});
    CHECK(actuator.calls == std::vector<std::string>{"job 1 1x8 cpus"});
}

TEST(PolicyCycleThreads, AReloadWithoutThreadPolicyWithdrawsTheAdviceOnce)
{
    Burstd b(*this);
    for (const auto& e : learning_runs())
        b.cycle.observe(e);
    cycle(b);
    b.cycle.replace_chain({}, nullptr);
    cycle(b);
    cycle(b);
    LONGS_EQUAL(2, advice.size());
    CHECK(advice[0] == (std::map<std::string, std::uint32_t>{{"scal", 8}}));
    CHECK(advice[1].empty()); // the plugin's table is replaced by nothing
}

#include "app/warm/interactive_holds.hpp"

#include "app/cycle/policy_cycle_fakes.hpp"
#include "policy/policy_test_state.hpp"

#include <set>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::StateBuilder;

namespace {

// Partition "debug": local nodes n1 and n2 of 4 cores, all busy, and the group aws
// (two powered-down nodes), all in it.
StateBuilder site()
{
    StateBuilder b;
    b.local("n1", 4, 4).local("n2", 4, 4).group("aws", 4, 2, 1.0, 100);
    b.state.snapshot.partitions.push_back(Partition{"debug", {"n1", "n2", "aws-1", "aws-2"}});
    b.state.snapshot.time = 100;
    return b;
}

// burstd's hold of a core of "debug", running on `node` or queued.
void hold(StateBuilder& b, JobId id, const std::string& node = "")
{
    Job h;
    h.id = id;
    h.name = kInteractiveHoldName;
    h.qos = "ihold";
    h.cpus = 1;
    h.partitions = {"debug"};
    if (!node.empty()) {
        h.state = JobState::Running;
        h.nodes = {node};
    }
    b.state.standby.interactive_holds.push_back(h);
}

void interactive_job(StateBuilder& b, JobId id, std::uint32_t cpus)
{
    b.pending(id, cpus);
    b.state.snapshot.jobs.back().qos = "interactive";
    b.state.snapshot.jobs.back().partitions = {"debug"};
    b.state.snapshot.jobs.back().reason = PendingReason("Resources");
}

InteractiveHoldPlan plan(const StateBuilder& b, std::uint32_t cores, std::uint32_t in_flight = 0,
                         const std::vector<JobId>& cancelled = {}, const std::set<JobId>& served = {})
{
    return plan_interactive_holds(InteractiveReserve{"debug", cores}, b.state, "interactive", in_flight, cancelled,
                                  served);
}

InteractiveHolds::Settings settings(std::uint32_t cores)
{
    return InteractiveHolds::Settings{{InteractiveReserve{"debug", cores}}, "interactive", "ihold"};
}

std::string joined(const std::vector<std::string>& lines)
{
    std::string text;
    for (const auto& l : lines)
        text += (text.empty() ? "" : "; ") + l;
    return text;
}

} // namespace

TEST_GROUP(InteractiveHoldPlan){};

TEST(InteractiveHoldPlan, HoldsEachReservedCoreWithAOneCoreJob)
{
    StateBuilder b = site();
    LONGS_EQUAL(3, plan(b, 3).submit);
    hold(b, 10, "n2");
    hold(b, 11);
    InteractiveHoldPlan p = plan(b, 3);
    LONGS_EQUAL(1, p.submit);
    CHECK(p.cancel.empty());
    LONGS_EQUAL(0, plan(b, 3, 1).submit); // one more submitted, not in the snapshot yet
}

TEST(InteractiveHoldPlan, ACancelledOrEndingHoldHoldsNothing)
{
    StateBuilder b = site();
    hold(b, 10, "n2");
    hold(b, 11, "n2");
    b.state.standby.interactive_holds.back().state = JobState::Completing; // preempted by an interactive job
    LONGS_EQUAL(2, plan(b, 2, 0, {10}).submit);
}

TEST(InteractiveHoldPlan, AFewerCoresCancelQueuedHoldsFirstThenTheNewestRunning)
{
    StateBuilder b = site();
    hold(b, 10, "n2");
    hold(b, 12, "n2");
    hold(b, 13);
    InteractiveHoldPlan p = plan(b, 1);
    LONGS_EQUAL(0, p.submit);
    CHECK(p.cancel == std::vector<JobId>({13, 12}));
}

TEST(InteractiveHoldPlan, AWaitingInteractiveJobGetsTheCoresNoHoldIsQueuedAheadOfIt)
{
    StateBuilder b = site();
    hold(b, 10, "n2");
    hold(b, 11, "n2");
    hold(b, 12);
    interactive_job(b, 50, 1);
    InteractiveHoldPlan p = plan(b, 3);
    LONGS_EQUAL(0, p.submit);
    // The queued hold would start first; of the running ones, as many as it needs.
    CHECK(p.cancel == std::vector<JobId>({12, 11}));
}

TEST(InteractiveHoldPlan, OnlyInteractiveJobsThatCouldStartAndAreInThePartitionCount)
{
    StateBuilder b = site();
    hold(b, 10, "n2");
    interactive_job(b, 50, 2);
    b.state.snapshot.jobs.back().reason = PendingReason("JobHeldUser");
    interactive_job(b, 51, 2);
    b.state.snapshot.jobs.back().partitions = {"other"};
    b.pending(52, 2); // batch work
    b.state.snapshot.jobs.back().partitions = {"debug"};
    InteractiveHoldPlan p = plan(b, 2);
    LONGS_EQUAL(1, p.submit);
    CHECK(p.cancel.empty());
}

TEST(InteractiveHoldPlan, LeavesJobsOfTheHoldQosBurstdDidNotSubmitAlone)
{
    StateBuilder b = site();
    hold(b, 10, "n2");
    b.state.standby.interactive_holds.back().name = "someone-elses";
    InteractiveHoldPlan p = plan(b, 0);
    CHECK(p.cancel.empty());
    LONGS_EQUAL(1, plan(b, 1).submit);
}

TEST_GROUP(InteractiveHolds){};

TEST(InteractiveHolds, SubmitsOneCoreHoldsOffTheNodeGroupsOnceThoughTheSnapshotLags)
{
    test::RecordingActuator slurm;
    InteractiveHolds holds(slurm);
    StateBuilder b = site();
    std::vector<std::string> errors;
    STRCMP_EQUAL("submit 2 interactive hold(s) in debug: Interactive= keeps 2 core(s) there",
                 joined(holds.keep(settings(2), b.state, 101, errors)).c_str());
    CHECK(errors.empty());
    LONGS_EQUAL(2, slurm.calls.size());
    STRCMP_EQUAL("submit burst-interactive-hold partition=debug qos=ihold cpus=1 exclude=aws-1,aws-2 -> 9000",
                 slurm.calls[0].c_str());
    // Snapshots taken before they were submitted show none: nothing more.
    for (Time now = 110; now < 500; now += 30)
        STRCMP_EQUAL("", joined(holds.keep(settings(2), b.state, now, errors)).c_str());
    LONGS_EQUAL(2, slurm.calls.size());
    // One taken after shows one running, one queued: still nothing.
    hold(b, 9000, "n2");
    hold(b, 9001);
    b.state.snapshot.time = 500;
    STRCMP_EQUAL("", joined(holds.keep(settings(2), b.state, 501, errors)).c_str());
    LONGS_EQUAL(2, slurm.calls.size());
}

TEST(InteractiveHolds, AnInteractiveJobPreemptsOneThenItIsReplacedOnceTheJobRuns)
{
    test::RecordingActuator slurm;
    InteractiveHolds holds(slurm);
    StateBuilder b = site();
    hold(b, 10, "n2");
    hold(b, 11, "n2");
    std::vector<std::string> errors;
    // Slurm preempted hold 11 for job 50, which waits for it to end.
    b.state.standby.interactive_holds.back().state = JobState::Completing;
    interactive_job(b, 50, 1);
    STRCMP_EQUAL("", joined(holds.keep(settings(2), b.state, 101, errors)).c_str());
    CHECK(slurm.calls.empty());
    // Job 50 runs on the core hold 11 had; a new hold takes the next free one.
    b.state.standby.interactive_holds.pop_back();
    b.state.snapshot.jobs.back().state = JobState::Running;
    b.state.snapshot.time = 110;
    STRCMP_EQUAL("submit 1 interactive hold(s) in debug: Interactive= keeps 2 core(s) there",
                 joined(holds.keep(settings(2), b.state, 111, errors)).c_str());
}

TEST(InteractiveHolds, CancelsTheHoldsOfAPartitionInteractiveNoLongerNames)
{
    test::RecordingActuator slurm;
    InteractiveHolds holds(slurm);
    StateBuilder b = site();
    hold(b, 10, "n2");
    std::vector<std::string> errors;
    STRCMP_EQUAL("cancel interactive hold(s) 10 in debug: Interactive= no longer names the partition",
                 joined(holds.keep(InteractiveHolds::Settings{{}, "interactive", "ihold"}, b.state, 101, errors))
                     .c_str());
    CHECK(holds.cancelled(10));
    // Still shown by the next snapshot: not cancelled twice.
    STRCMP_EQUAL("", joined(holds.keep(InteractiveHolds::Settings{{}, "interactive", "ihold"}, b.state, 105, errors))
                         .c_str());
    LONGS_EQUAL(1, slurm.calls.size());
}

TEST(InteractiveHolds, SaysWhyAPartitionGetsNoHold)
{
    test::RecordingActuator slurm;
    InteractiveHolds holds(slurm);
    StateBuilder b = site();
    b.state.snapshot.partitions.push_back(Partition{"cloudonly", {"aws-1", "aws-2"}});
    std::vector<std::string> errors;
    InteractiveHolds::Settings s{{{"nosuch", 2}, {"cloudonly", 2}}, "interactive", "ihold"};
    CHECK(holds.keep(s, b.state, 101, errors).empty());
    CHECK(slurm.calls.empty());
    LONGS_EQUAL(2, errors.size());
    STRCMP_EQUAL("Interactive=: Slurm has no partition nosuch, so no core of it is kept for interactive jobs",
                 errors[0].c_str());
    STRCMP_CONTAINS("partition cloudonly has no local node", errors[1].c_str());
}

TEST(InteractiveHoldPlan, AHoldCancelledForAWaitingJobIsNotCancelledAgainNorAnotherWithIt)
{
    StateBuilder b = site();
    hold(b, 10, "n2");
    hold(b, 11, "n2");
    interactive_job(b, 50, 1);
    CHECK(plan(b, 2).cancel == std::vector<JobId>({11}));
    CHECK(plan(b, 2, 0, {11}).cancel.empty());
}

TEST(InteractiveHoldPlan, AHoldNearItsTimeLimitIsReplacedAheadOfTime)
{
    StateBuilder b = site(); // snapshot taken at 100
    hold(b, 10, "n2");
    b.state.standby.interactive_holds.back().start_time = 0;
    b.state.standby.interactive_holds.back().time_limit = 3600;
    LONGS_EQUAL(0, plan(b, 1).submit);
    b.state.snapshot.time = 3600 - kHoldRenewalLead;
    InteractiveHoldPlan p = plan(b, 1);
    LONGS_EQUAL(1, p.submit);
    CHECK(p.cancel.empty()); // it ends by itself; the queued one takes its core
    hold(b, 11);
    LONGS_EQUAL(0, plan(b, 1).submit);
    CHECK(plan(b, 1).cancel.empty());
}

TEST(InteractiveHoldPlan, HoldsAreGivenUpOnceForAJobThatKeepsWaitingForSomethingElse)
{
    StateBuilder b = site();
    for (JobId id = 10; id < 14; ++id)
        hold(b, id, "n2");
    interactive_job(b, 50, 1); // say it asks for a node no hold is on
    InteractiveHoldPlan first = plan(b, 4);
    CHECK(first.cancel == std::vector<JobId>({13}));
    CHECK(first.served == std::vector<JobId>({50}));
    // Hold 13 is gone and job 50 still waits: the other holds stay.
    b.state.standby.interactive_holds.pop_back();
    InteractiveHoldPlan later = plan(b, 4, 0, {}, {50});
    CHECK(later.cancel.empty());
    LONGS_EQUAL(0, later.submit); // nor is a hold queued ahead of it
}

TEST(InteractiveHoldPlan, IdleLocalCoresAndSuspendedHoldsServeAWaitingJobFirst)
{
    StateBuilder b = site();
    hold(b, 10, "n2");
    hold(b, 11, "n2");
    b.state.standby.interactive_holds.back().state = JobState::Suspended; // preempted by suspension
    interactive_job(b, 50, 2);
    b.node("n1").alloc_cpus = 3; // one core idle
    // The idle core and the suspended hold's make its two: no running hold is given up.
    InteractiveHoldPlan p = plan(b, 2);
    CHECK(p.cancel.empty());
    LONGS_EQUAL(0, p.submit);
}

TEST(InteractiveHoldPlan, AHoldWellPastItsLimitIsCancelledAndAPendingOneWithoutCpusCountsOne)
{
    StateBuilder b = site();
    b.state.snapshot.time = 5000;
    hold(b, 10, "n2");
    b.state.standby.interactive_holds.back().start_time = 1000;
    b.state.standby.interactive_holds.back().time_limit = 3600; // ended at 4600, Slurm did not end it
    hold(b, 11);
    b.state.standby.interactive_holds.back().cpus = 0; // a pending record without details
    InteractiveHoldPlan p = plan(b, 1);
    CHECK(p.cancel == std::vector<JobId>({10}));
    LONGS_EQUAL(0, p.submit);
}

TEST(InteractiveHoldPlan, HoldsYieldToABatchJobTooWideToStartBesideTheReserve)
{
    StateBuilder b = site(); // 8 local cores in debug
    hold(b, 10, "n2");
    hold(b, 11, "n2");
    hold(b, 12);
    b.pending(52, 7); // fits beside one hold, not the reserve of three
    b.state.snapshot.jobs.back().partitions = {"debug"};
    b.state.snapshot.jobs.back().reason = PendingReason("Resources");
    b.pending(53, 9); // wider than the partition: no hold helps it
    b.state.snapshot.jobs.back().partitions = {"debug"};
    b.pending(55, 7); // after 52 in line: 52 gets the cores first
    b.state.snapshot.jobs.back().partitions = {"debug"};
    InteractiveHoldPlan p = plan(b, 3);
    CHECK(p.cancel == std::vector<JobId>({12, 11}));
    LONGS_EQUAL(0, p.submit);
    // Still waiting (for batch work to end): no hold is queued ahead of it, none more given up.
    b.state.standby.interactive_holds.resize(1);
    InteractiveHoldPlan later = plan(b, 3);
    CHECK(later.cancel.empty());
    LONGS_EQUAL(0, later.submit);
    // First in line, a job that fits beside the whole reserve changes nothing.
    b.state.snapshot.jobs.clear();
    b.pending(54, 5);
    b.state.snapshot.jobs.back().partitions = {"debug"};
    b.pending(56, 7);
    b.state.snapshot.jobs.back().partitions = {"debug"};
    LONGS_EQUAL(2, plan(b, 3).submit);
}

#include "app/warm/placeholder_pool.hpp"

#include "app/cycle/policy_cycle_fakes.hpp"
#include "policy/policy_test_state.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::aws_site;
using burst::test::StateBuilder;

namespace {

// A placeholder of group aws, running on `node` (its node up and, with the
// placeholder set aside, idle) or queued.
void placeholder(StateBuilder& b, JobId id, const std::string& node = "")
{
    Job p;
    p.id = id;
    p.name = kPlaceholderName;
    p.qos = "hold";
    p.partitions = {"aws"};
    if (!node.empty()) {
        p.state = JobState::Running;
        p.nodes = {node};
        b.up(node, 0);
    }
    b.state.standby.placeholders.push_back(p);
}

void real_job_on(StateBuilder& b, JobId id, const std::string& node)
{
    b.running(id, 8, 0);
    b.state.snapshot.jobs.back().partitions = {"aws"};
    b.state.snapshot.jobs.back().nodes = {node};
    b.up(node, 8);
}

void waiting_for_aws(StateBuilder& b, JobId id, std::uint32_t nodes = 1)
{
    b.pending(id, 8 * nodes);
    b.state.snapshot.jobs.back().partitions = {"local", "aws"};
    b.state.snapshot.jobs.back().node_count = nodes;
}

// A scavenger job (set aside at ingest, its cores given back) running on
// `node` of group aws.
void scavenger_on(StateBuilder& b, JobId id, const std::string& node)
{
    Job j;
    j.id = id;
    j.qos = "scavenger";
    j.partitions = {"aws"};
    j.state = JobState::Running;
    j.nodes = {node};
    j.cpus = 2;
    b.state.standby.scavengers.push_back(j);
    b.up(node, 0);
}

const NodeGroup& aws(const StateBuilder& b) { return b.state.groups[0]; }

PlaceholderPlan plan(const StateBuilder& b, std::uint32_t keep, std::uint32_t in_flight = 0,
                     const std::vector<JobId>& cancelled = {})
{
    return plan_placeholders(aws(b), keep, b.state, in_flight, cancelled);
}

} // namespace

TEST_GROUP(PlaceholderPlan){};

TEST(PlaceholderPlan, SubmitsOnePlaceholderPerWarmNodeNoRealWorkHolds)
{
    StateBuilder b = aws_site();
    LONGS_EQUAL(2, plan(b, 2).submit);
    real_job_on(b, 7, "aws-1");
    PlaceholderPlan p = plan(b, 2);
    LONGS_EQUAL(1, p.submit);
    CHECK(p.cancel.empty());
    LONGS_EQUAL(0, plan(b, 1).submit);
}

TEST(PlaceholderPlan, CountsSubmissionsTheSnapshotDoesNotShowYet)
{
    StateBuilder b = aws_site();
    placeholder(b, 50, "aws-1");
    LONGS_EQUAL(0, plan(b, 3, 2).submit);
    LONGS_EQUAL(1, plan(b, 3, 1).submit);
}

TEST(PlaceholderPlan, ACancelledPlaceholderTheSnapshotStillShowsHoldsNothing)
{
    StateBuilder b = aws_site();
    placeholder(b, 50, "aws-1");
    LONGS_EQUAL(0, plan(b, 1).submit);
    LONGS_EQUAL(1, plan(b, 1, 0, {50}).submit);
}

TEST(PlaceholderPlan, AWaitingRealJobTakesARunningPlaceholdersNode)
{
    StateBuilder b = aws_site();
    placeholder(b, 50, "aws-1");
    placeholder(b, 51, "aws-2");
    waiting_for_aws(b, 7);
    PlaceholderPlan p = plan(b, 2);
    // The oldest goes; the job's node counts as real work from now on.
    LONGS_EQUAL(1, p.cancel.size());
    LONGS_EQUAL(50, p.cancel[0]);
    CHECK(p.power_down.empty());
    LONGS_EQUAL(0, p.submit);
}

TEST(PlaceholderPlan, AnIdleNodeNothingHoldsIsTheWaitingJobsFirst)
{
    StateBuilder b = aws_site();
    placeholder(b, 50, "aws-1");
    b.up("aws-2", 0);
    waiting_for_aws(b, 7);
    PlaceholderPlan p = plan(b, 2);
    CHECK(p.cancel.empty());
    LONGS_EQUAL(0, p.submit);
}

TEST(PlaceholderPlan, AJobHeldBackByADependencyWaitsForNoNode)
{
    StateBuilder b = aws_site();
    placeholder(b, 50, "aws-1");
    waiting_for_aws(b, 7);
    b.state.snapshot.jobs.back().reason = PendingReason("Dependency");
    PlaceholderPlan p = plan(b, 1);
    CHECK(p.cancel.empty());
    LONGS_EQUAL(0, p.submit);
}

TEST(PlaceholderPlan, AForecastDropCancelsQueuedPlaceholdersFirstThenPowersHeldNodesDown)
{
    StateBuilder b = aws_site();
    placeholder(b, 50, "aws-1");
    placeholder(b, 51, "aws-2");
    placeholder(b, 52);
    placeholder(b, 53);
    PlaceholderPlan p = plan(b, 1);
    std::vector<JobId> expected{53, 52, 51};
    CHECK(p.cancel == expected);
    CHECK(p.power_down == std::vector<std::string>{"aws-2"});
    LONGS_EQUAL(0, p.submit);
}

TEST(PlaceholderPlan, LeavesJobsOfThePlaceholderQosThatBurstdDidNotSubmitAlone)
{
    StateBuilder b = aws_site();
    placeholder(b, 50, "aws-1");
    b.state.standby.placeholders.back().name = "someone-elses";
    PlaceholderPlan p = plan(b, 0);
    CHECK(p.cancel.empty());
}

TEST(PlaceholderPlan, ARoutedJobFreesAsManyHeldNodesAsItAsksBeyondIdleOnes)
{
    StateBuilder b = aws_site();
    placeholder(b, 50, "aws-1");
    placeholder(b, 51, "aws-2");
    placeholder(b, 52, "aws-3");
    CHECK(placeholders_to_free(2, aws(b), b.state, {}) == std::vector<JobId>({50, 51}));
    b.up("aws-4", 0);
    CHECK(placeholders_to_free(2, aws(b), b.state, {}) == std::vector<JobId>({50}));
    // 50's cancellation frees aws-1 already.
    CHECK(placeholders_to_free(2, aws(b), b.state, {50}).empty());
}

TEST(PlaceholderPlan, APlaceholderOnANodeThatIsUpIsFreedBeforeOneOnANodeStillBooting)
{
    StateBuilder b = aws_site();
    placeholder(b, 50, "aws-1");
    b.node("aws-1").flags |= kNodePoweringUp;
    placeholder(b, 51, "aws-2");
    CHECK(placeholders_to_free(1, aws(b), b.state, {}) == std::vector<JobId>({51}));
}

TEST(PlaceholderPlan, WaitingNarrowJobsArePackedIntoTheGroupsNodes)
{
    StateBuilder b = aws_site();
    for (JobId id = 1; id <= 5; ++id)
        waiting_for_aws(b, id);
    for (auto& job : b.state.snapshot.jobs)
        job.cpus = 2; // five 2-core jobs: two 8-core nodes
    waiting_for_aws(b, 9, 3); // and a 3-node job
    LONGS_EQUAL(5, nodes_waited_for(aws(b), b.state));
}

TEST_GROUP(PlaceholderPool){};

TEST(PlaceholderPool, AStalledSnapshotNeverMakesItSubmitTwice)
{
    test::RecordingActuator slurm;
    PlaceholderPool pool(slurm);
    pool.set_qos("hold");
    StateBuilder b = aws_site();
    b.state.snapshot.time = 90; // taken before the submission, and never renewed
    std::string error;
    pool.keep(aws(b), 1, b.state, 100, "warm", error);
    for (Time now = 110; now < 1000; now += 30)
        STRCMP_EQUAL("", pool.keep(aws(b), 1, b.state, now, "warm", error).c_str());
    LONGS_EQUAL(1, slurm.calls.size());
    // A snapshot taken well after it without the placeholder: it ended; another is due.
    b.state.snapshot.time = 1000;
    STRCMP_EQUAL("submit 1 placeholder job(s)", pool.keep(aws(b), 1, b.state, 1001, "warm", error).c_str());
}

TEST(PlaceholderPool, ReloadWithoutAQosKeepsTheLastOne)
{
    test::RecordingActuator slurm;
    PlaceholderPool pool(slurm);
    pool.set_qos("hold");
    pool.set_qos("");
    STRCMP_EQUAL("hold", pool.qos().c_str());
}

TEST(PlaceholderPool, SubmitsThroughSlurmOnceThoughTheSnapshotLagsThenCancelsWhenTheForecastDrops)
{
    test::RecordingActuator slurm;
    PlaceholderPool pool(slurm);
    pool.set_qos("hold");
    StateBuilder b = aws_site();
    std::string error;
    STRCMP_EQUAL("submit 2 placeholder job(s)", pool.keep(aws(b), 2, b.state, 100, "warm", error).c_str());
    STRCMP_EQUAL("", error.c_str());
    LONGS_EQUAL(2, slurm.calls.size());
    STRCMP_EQUAL("submit burst-placeholder partition=aws qos=hold -> 9000", slurm.calls[0].c_str());
    // The next snapshot does not show them yet: nothing more.
    STRCMP_EQUAL("", pool.keep(aws(b), 2, b.state, 105, "warm", error).c_str());
    LONGS_EQUAL(2, slurm.calls.size());
    // Now it does, one running; the forecast drops to nothing.
    placeholder(b, 9000, "aws-1");
    placeholder(b, 9001);
    STRCMP_EQUAL("cancel placeholder job(s) 9001,9000, power down aws-1",
                 pool.keep(aws(b), 0, b.state, 110, "warm", error).c_str());
    CHECK(std::find(slurm.calls.begin(), slurm.calls.end(), "cancel 9001") != slurm.calls.end());
    // Cancelled, still in the snapshot: not cancelled twice.
    const std::size_t calls = slurm.calls.size();
    STRCMP_EQUAL("", pool.keep(aws(b), 0, b.state, 115, "warm", error).c_str());
    LONGS_EQUAL(calls, slurm.calls.size());
    LONGS_EQUAL(0, pool.targets().at("aws").keep);
}

// A scavenger job alone on a warm node keeps it up as a placeholder would:
// the pool counts the node, and gives it up by requeueing the job, for a
// real job or for a lower forecast; then the node idles as any node does
// (no power-down: SuspendTime and the hiring policies decide).
TEST(PlaceholderPlan, AScavengerAloneOnAGroupNodeHoldsItLikeAPlaceholder)
{
    StateBuilder b = aws_site();
    scavenger_on(b, 50, "aws-1");
    LONGS_EQUAL(1, scavengers_holding(aws(b), b.state).size());
    LONGS_EQUAL(1, plan(b, 2).submit); // one more node wanted, not two
    LONGS_EQUAL(0, plan(b, 1).submit);
    PlaceholderPlan drop = plan(b, 0);
    LONGS_EQUAL(1, drop.cancel.size());
    LONGS_EQUAL(50, drop.cancel[0]);
    CHECK(drop.power_down.empty());
    // A real job waits: the scavenger's node is freed for it.
    waiting_for_aws(b, 7);
    LONGS_EQUAL(1, placeholders_to_free(1, aws(b), b.state, {}).size());
}

// Two scavenger jobs on one node hold one node, and both give it up.
TEST(PlaceholderPlan, ScavengersSharingANodeHoldOneNode)
{
    StateBuilder b = aws_site();
    scavenger_on(b, 50, "aws-1");
    scavenger_on(b, 51, "aws-1");
    LONGS_EQUAL(1, plan(b, 2).submit);
    PlaceholderPlan drop = plan(b, 0);
    LONGS_EQUAL(2, drop.cancel.size());
    scavenger_on(b, 52, "aws-3");
    LONGS_EQUAL(2, placeholders_to_free(1, aws(b), b.state, {}).size()); // aws-1's two
    LONGS_EQUAL(3, placeholders_to_free(2, aws(b), b.state, {}).size()); // and aws-3's
}

// For real work placeholders go first: a scavenger would lose its work.
TEST(PlaceholderPlan, RealWorkTakesAPlaceholdersNodeBeforeAScavengers)
{
    StateBuilder b = aws_site();
    scavenger_on(b, 50, "aws-1");
    placeholder(b, 9000, "aws-2");
    const auto ids = placeholders_to_free(1, aws(b), b.state, {});
    LONGS_EQUAL(1, ids.size());
    LONGS_EQUAL(9000, ids[0]);
}

// A scavenger job Slurm would not requeue keeps its node held: the node is
// neither given up again nor free for a waiting job, which takes the
// placeholder's node instead.
TEST(PlaceholderPlan, ANodeOfAScavengerSlurmWillNotRequeueStaysHeld)
{
    StateBuilder b = aws_site();
    scavenger_on(b, 50, "aws-1");
    scavenger_on(b, 51, "aws-1");
    placeholder(b, 9000, "aws-2");
    waiting_for_aws(b, 7);
    const auto ids = placeholders_to_free(1, aws(b), b.state, {}, {50});
    LONGS_EQUAL(1, ids.size());
    LONGS_EQUAL(9000, ids[0]);
    PlaceholderPlan p = plan_placeholders(aws(b), 0, b.state, 0, {}, {50});
    LONGS_EQUAL(1, p.cancel.size()); // the placeholder, for job 7
    LONGS_EQUAL(9000, p.cancel[0]);
    LONGS_EQUAL(0, plan_placeholders(aws(b), 2, b.state, 0, {}, {50}).submit); // job 7 on aws-2, aws-1 held
}

// Beside real work the node is up for that work: the scavenger holds
// nothing, whatever the node's count of allocated CPUs says (set-aside
// jobs' CPUs are taken off it), and no forecast drop touches the node.
TEST(PlaceholderPlan, AScavengerBesideRealWorkHoldsNothing)
{
    StateBuilder b = aws_site();
    scavenger_on(b, 50, "aws-1");
    real_job_on(b, 7, "aws-1");
    b.up("aws-1", 0);
    CHECK(scavengers_holding(aws(b), b.state).empty());
    PlaceholderPlan drop = plan(b, 0);
    CHECK(drop.cancel.empty());
    CHECK(drop.power_down.empty());
}

// On a node still booting the scavenger is one Slurm resumed the node
// for: the instance workers refuse that node; the pool leaves it be.
TEST(PlaceholderPlan, AScavengerOnANodeNotUpHoldsNothing)
{
    StateBuilder b = aws_site();
    scavenger_on(b, 50, "aws-1");
    b.node("aws-1").flags = kNodeCloud | kNodePoweringUp;
    CHECK(scavengers_holding(aws(b), b.state).empty());
}

// The forecast drops below what is held: placeholders go first (a
// scavenger would lose its work), their nodes powered down.
TEST(PlaceholderPlan, AForecastDropGivesUpPlaceholdersBeforeScavengers)
{
    StateBuilder b = aws_site();
    scavenger_on(b, 50, "aws-1");
    placeholder(b, 9000, "aws-2");
    PlaceholderPlan drop = plan(b, 1);
    LONGS_EQUAL(1, drop.cancel.size());
    LONGS_EQUAL(9000, drop.cancel[0]);
    LONGS_EQUAL(1, drop.power_down.size());
    STRCMP_EQUAL("aws-2", drop.power_down[0].c_str());
}

TEST(PlaceholderPool, GivesUpAScavengersNodeByRequeueingItOnce)
{
    test::RecordingActuator slurm;
    PlaceholderPool pool(slurm);
    pool.set_qos("hold");
    StateBuilder b = aws_site();
    placeholder(b, 9000, "aws-2");
    scavenger_on(b, 50, "aws-1");
    std::string error;
    STRCMP_EQUAL("cancel placeholder job(s) 9000, requeue scavenger job(s) 50, power down aws-2",
                 pool.keep(aws(b), 0, b.state, 110, "warm", error).c_str());
    STRCMP_EQUAL("", error.c_str());
    CHECK(std::find(slurm.calls.begin(), slurm.calls.end(), "requeue 50") != slurm.calls.end());
    CHECK(std::find(slurm.calls.begin(), slurm.calls.end(), "cancel 50") == slurm.calls.end());
    // The snapshot still shows it running: not requeued twice.
    const std::size_t calls = slurm.calls.size();
    STRCMP_EQUAL("", pool.keep(aws(b), 0, b.state, 115, "warm", error).c_str());
    LONGS_EQUAL(calls, slurm.calls.size());
}

// A job Slurm will not requeue (--no-requeue, JobRequeue=0, srun) is left
// to run and not asked again; the jobs after it are still given up, and the
// placeholders' nodes powered down.
TEST(PlaceholderPool, AScavengerSlurmWillNotRequeueIsLeftToRun)
{
    test::RecordingActuator slurm;
    slurm.not_requeueable = {50};
    PlaceholderPool pool(slurm);
    pool.set_qos("hold");
    StateBuilder b = aws_site();
    scavenger_on(b, 50, "aws-1");
    scavenger_on(b, 52, "aws-3");
    placeholder(b, 9000, "aws-2");
    std::string error;
    STRCMP_EQUAL("cancel placeholder job(s) 9000, requeue scavenger job(s) 52, power down aws-2",
                 pool.keep(aws(b), 0, b.state, 110, "warm", error).c_str());
    STRCMP_CONTAINS("presently disabled (left to run)", error.c_str());
    error.clear();
    const std::size_t calls = slurm.calls.size();
    b.state.standby.placeholders.clear();
    b.state.standby.scavengers.pop_back(); // 52 requeued
    STRCMP_EQUAL("", pool.keep(aws(b), 0, b.state, 111, "warm", error).c_str());
    STRCMP_EQUAL("", error.c_str());
    LONGS_EQUAL(calls, slurm.calls.size());
}

// Scavenger work burstd pinned to a warm node is the pool's own: a lower
// forecast powers its node down as a placeholder's, and one Slurm will not
// requeue is cancelled, as preemption (PreemptMode=REQUEUE) would.
TEST(PlaceholderPool, APinnedScavengerGoesAsAPlaceholderWhenTheForecastDrops)
{
    test::RecordingActuator slurm;
    slurm.not_requeueable = {52};
    PlaceholderPool pool(slurm);
    pool.set_qos("hold");
    StateBuilder b = aws_site();
    scavenger_on(b, 50, "aws-1"); // Slurm started it there
    scavenger_on(b, 51, "aws-2"); // burstd pinned it there
    scavenger_on(b, 52, "aws-3"); // burstd pinned it there; --no-requeue
    pool.set_pinned(PlaceholderPool::Pinned{{51, 52}, {}});
    std::string error;
    STRCMP_EQUAL("requeue scavenger job(s) 51,50, cancel scavenger job(s) 52 (Slurm would not requeue them), "
                 "power down aws-[2-3]",
                 pool.keep(aws(b), 0, b.state, 110, "warm", error).c_str());
    STRCMP_EQUAL("", error.c_str());
    CHECK(std::find(slurm.calls.begin(), slurm.calls.end(), "POWER_DOWN aws-1") == slurm.calls.end());
}

TEST(PlaceholderPool, AScavengerPinnedToANodeCountsAsItsHolderUntilItStarts)
{
    test::RecordingActuator slurm;
    PlaceholderPool pool(slurm);
    pool.set_qos("hold");
    StateBuilder b = aws_site();
    b.up("aws-1", 0); // its placeholder cancelled, the pinned job about to start
    pool.set_pinned(PlaceholderPool::Pinned{{51}, {{"aws", 1}}});
    std::string error;
    STRCMP_EQUAL("submit 1 placeholder job(s)", pool.keep(aws(b), 2, b.state, 110, "warm", error).c_str());
    STRCMP_EQUAL("", error.c_str());
}

// A requeue that fails for another reason (Slurm preempted the job already,
// a timeout) is no refusal for good: the job is neither cancelled nor held
// stuck, and is asked again while it holds the node.
TEST(PlaceholderPool, ARequeueThatFailsForAnotherReasonIsTriedAgain)
{
    test::RecordingActuator slurm;
    slurm.requeue_fails = {51};
    PlaceholderPool pool(slurm);
    pool.set_qos("hold");
    StateBuilder b = aws_site();
    scavenger_on(b, 51, "aws-2");
    pool.set_pinned(PlaceholderPool::Pinned{{51}, {}});
    std::string error;
    STRCMP_EQUAL("", pool.keep(aws(b), 0, b.state, 110, "warm", error).c_str());
    STRCMP_CONTAINS("Job is pending execution", error.c_str());
    CHECK(std::find(slurm.calls.begin(), slurm.calls.end(), "cancel 51") == slurm.calls.end());
    slurm.requeue_fails.clear();
    error.clear();
    STRCMP_EQUAL("requeue scavenger job(s) 51, power down aws-2",
                 pool.keep(aws(b), 0, b.state, 111, "warm", error).c_str());
    STRCMP_EQUAL("", error.c_str());
}

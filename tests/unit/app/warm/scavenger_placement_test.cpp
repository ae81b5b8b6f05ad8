#include "app/warm/scavenger_placement.hpp"

#include "app/cycle/policy_cycle_fakes.hpp"
#include "policy/policy_test_state.hpp"
#include "scratch_dir.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::RecordingActuator;
using burst::test::aws_site;
using burst::test::StateBuilder;

namespace {

void placeholder_on(StateBuilder& b, JobId id, const std::string& node)
{
    Job p;
    p.id = id;
    p.name = kPlaceholderName;
    p.qos = "hold";
    p.partitions = {"aws"};
    p.state = JobState::Running;
    p.nodes = {node};
    b.state.standby.placeholders.push_back(p);
    b.up(node, 0);
}

// A scavenger job waiting in `partitions`, for `reason`.
Job& waiting_scavenger(StateBuilder& b, JobId id, std::vector<std::string> partitions,
                       const char* reason = "Resources", std::uint32_t cpus = 2)
{
    Job j;
    j.id = id;
    j.qos = "scav";
    j.cpus = cpus;
    j.partitions = partitions;
    j.reason = PendingReason(reason);
    b.state.standby.scavengers.push_back(j);
    return b.state.standby.scavengers.back();
}

Job& scavenger(StateBuilder& b, JobId id)
{
    for (auto& j : b.state.standby.scavengers)
        if (j.id == id)
            return j;
    throw std::runtime_error("no scavenger job " + std::to_string(id));
}

std::string errors(const std::vector<ScavengerPlacement::Step>& steps)
{
    std::string text;
    for (const auto& s : steps)
        if (!s.error.empty())
            text += s.action + ": " + s.error + "\n";
    return text;
}

} // namespace

TEST_GROUP(ScavengerPlacement)
{
    test::ScratchDir scratch{"scavenger-placement-test"};
    std::string path = scratch.file("ledger.sqlite");
    RecordingActuator actuator;
    Ledger ledger{path};
    PlaceholderPool pool{actuator};

    // One cycle as PolicyCycle runs it (the pool keeping no target here),
    // on a snapshot taken at `now`.
    std::vector<ScavengerPlacement::Step> cycle(ScavengerPlacement& placement, StateBuilder& b, Time now,
                                                bool enabled = true)
    {
        b.state.snapshot.time = now;
        auto steps = placement.settle(b.state, enabled);
        pool.set_pinned(placement.pinned(b.state, pool));
        if (enabled)
            for (auto& s : placement.fill_warm_nodes(b.state, pool, now))
                steps.push_back(std::move(s));
        for (auto& s : placement.keep_off_cloud(b.state, enabled))
            steps.push_back(std::move(s));
        return steps;
    }
    std::uint32_t waiting_for_nodes(ScavengerPlacement& placement, const StateBuilder& b)
    {
        const auto pinned = placement.pinned(b.state, pool);
        auto g = pinned.waiting.find("aws");
        return g == pinned.waiting.end() ? 0 : g->second;
    }
};

TEST(ScavengerPlacement, KeepsWhatAJobAskedForBeforeTakingTheCloudAway)
{
    StateBuilder b = aws_site();
    waiting_scavenger(b, 8, {"local", "aws"});
    waiting_scavenger(b, 9, {"aws"});
    ScavengerPlacement placement(actuator, ledger);
    STRCMP_EQUAL("", errors(cycle(placement, b, 100)).c_str());
    CHECK(actuator.calls == (std::vector<std::string>{"job 8 local", "hold 9"}));
    const auto kept = ledger.scavengers();
    LONGS_EQUAL(2, kept.size());
    CHECK(kept[0].asked == (std::vector<std::string>{"local", "aws"}));
    CHECK_FALSE(kept[0].held);
    CHECK(kept[1].asked == (std::vector<std::string>{"aws"}));
    CHECK(kept[1].held);
}

TEST(ScavengerPlacement, PinsAWaitingJobToAPlaceholdersNodeBeforeCancellingThePlaceholder)
{
    StateBuilder b = aws_site();
    placeholder_on(b, 50, "aws-1");
    waiting_scavenger(b, 8, {"local", "aws"});
    ScavengerPlacement placement(actuator, ledger);
    cycle(placement, b, 100); // its partitions taken, what it asked kept
    actuator.calls.clear();
    scavenger(b, 8).partitions = {"local"};
    STRCMP_EQUAL("", errors(cycle(placement, b, 110)).c_str());
    CHECK(actuator.calls == (std::vector<std::string>{"place 8 aws node=aws-1", "cancel 50"}));
    STRCMP_EQUAL("aws-1", placement.pinned_node(8).c_str());
    STRCMP_EQUAL("aws-1", ledger.scavengers().at(0).node.c_str());
    CHECK(pool.cancelled(50));
    // Until it starts, it holds the node for the pool: no other placeholder
    // is asked for, and no policy may release the node.
    LONGS_EQUAL(1, waiting_for_nodes(placement, b));
    CHECK(placement.awaited_nodes(b.state) == (std::vector<std::string>{"aws-1"}));
    pool.set_pinned(placement.pinned(b.state, pool));
    std::string error;
    actuator.calls.clear();
    pool.keep(b.state.groups[0], 1, b.state, 111, "forecast", error);
    STRCMP_EQUAL("", error.c_str());
    CHECK(actuator.calls.empty());
}

TEST(ScavengerPlacement, ReleasesAJobItHeldForOnlyAskingForTheCloud)
{
    StateBuilder b = aws_site();
    placeholder_on(b, 50, "aws-1");
    waiting_scavenger(b, 9, {"aws"});
    ScavengerPlacement placement(actuator, ledger);
    cycle(placement, b, 100);
    scavenger(b, 9).reason = PendingReason("JobHeldAdmin");
    actuator.calls.clear();
    actuator.whys.clear();
    STRCMP_EQUAL("", errors(cycle(placement, b, 110)).c_str());
    CHECK(actuator.calls == (std::vector<std::string>{"place 9 aws node=aws-1 released", "cancel 50"}));
    CHECK(actuator.whys == (std::vector<std::string>{"job 9 why:"}));
}

TEST(ScavengerPlacement, ReleasesItsHoldEvenWhenTheSnapshotPredatesIt)
{
    StateBuilder b = aws_site();
    placeholder_on(b, 50, "aws-1");
    waiting_scavenger(b, 9, {"aws"});
    ScavengerPlacement placement(actuator, ledger);
    cycle(placement, b, 100); // held by burstd; the next snapshot was taken before that
    actuator.calls.clear();
    cycle(placement, b, 101);
    CHECK(actuator.calls == (std::vector<std::string>{"place 9 aws node=aws-1 released", "cancel 50"}));
}

TEST(ScavengerPlacement, PinsOnlyJobsThatAskedForTheGroupAndFitItsNodes)
{
    StateBuilder b = aws_site();
    placeholder_on(b, 50, "aws-1");
    ScavengerPlacement placement(actuator, ledger);
    ledger.save_scavenger(ScavengerRecord{3, {"local", "gpu"}, false, "", 0}); // another group's
    ledger.save_scavenger(ScavengerRecord{4, {"local", "aws"}, false, "", 0}); // 16 CPUs: wider than a node
    ledger.save_scavenger(ScavengerRecord{5, {"local", "aws"}, false, "", 0}); // an array
    ledger.save_scavenger(ScavengerRecord{6, {"local", "aws"}, false, "", 0}); // after another job
    ledger.save_scavenger(ScavengerRecord{7, {"aws"}, true, "", 0});           // held by its user
    waiting_scavenger(b, 3, {"local"});
    waiting_scavenger(b, 4, {"local"}, "Resources", 16);
    waiting_scavenger(b, 5, {"local"}).array_task_count = 4;
    waiting_scavenger(b, 6, {"local"}, "Dependency");
    waiting_scavenger(b, 7, {"aws"}, "JobHeldUser");
    waiting_scavenger(b, 2, {"local", "aws"}); // never had its partitions taken: burstd does not know it yet
    ledger.save_scavenger(ScavengerRecord{10, {"local", "aws"}, false, "", 0}); // needs a GPU
    waiting_scavenger(b, 10, {"local"}).needs = NodeNeeds("gpu:1", "");
    ledger.save_scavenger(ScavengerRecord{11, {"local", "aws"}, false, "", 0}); // the one that fits
    waiting_scavenger(b, 11, {"local"});
    STRCMP_EQUAL("", errors(cycle(placement, b, 100)).c_str());
    for (JobId id : {2, 3, 4, 5, 6, 7, 10})
        STRCMP_EQUAL("", placement.pinned_node(id).c_str());
    CHECK(actuator.calls == (std::vector<std::string>{"place 11 aws node=aws-1", "cancel 50", "job 2 local"}));
}

TEST(ScavengerPlacement, LeavesAPlaceholderThePoolGivesUpOrWhoseNodeIsNotUp)
{
    StateBuilder b = aws_site();
    placeholder_on(b, 50, "aws-1");
    placeholder_on(b, 51, "aws-2");
    placeholder_on(b, 52, "aws-3");
    placeholder_on(b, 53, "aws-4");
    b.node("aws-2").flags |= kNodeDrain;
    b.node("aws-3").flags |= kNodePowerDownPending;
    ledger.save_scavenger(ScavengerRecord{10, {"local", "aws"}, false, "", 0});
    waiting_scavenger(b, 10, {"local"});
    ledger.save_scavenger(ScavengerRecord{8, {"local", "aws"}, false, "", 0});
    ledger.save_scavenger(ScavengerRecord{9, {"local", "aws"}, false, "", 0});
    waiting_scavenger(b, 8, {"local"});
    waiting_scavenger(b, 9, {"local"});
    std::string error;
    Job waiting;
    waiting.id = 70;
    waiting.cpus = 8;
    pool.make_room(waiting, b.state.groups[0], b.state, 90, error); // cancels 50 for job 70
    CHECK(pool.cancelled(50));
    actuator.calls.clear();
    ScavengerPlacement placement(actuator, ledger);
    STRCMP_EQUAL("", errors(cycle(placement, b, 100)).c_str());
    // Of four, only aws-4's placeholder makes way (for the oldest job).
    CHECK(actuator.calls == (std::vector<std::string>{"place 8 aws node=aws-4", "cancel 53"}));
}

TEST(ScavengerPlacement, PutsARequeuedJobBackWhereItWaitedAndLetsItStartNow)
{
    StateBuilder b = aws_site();
    placeholder_on(b, 50, "aws-1");
    ledger.save_scavenger(ScavengerRecord{8, {"local", "aws"}, false, "", 0});
    waiting_scavenger(b, 8, {"local"});
    ScavengerPlacement placement(actuator, ledger);
    cycle(placement, b, 100);
    // It runs on aws-1, then is requeued for real work.
    b.state.standby.placeholders.clear();
    Job& job = scavenger(b, 8);
    job.partitions = {"aws"};
    job.state = JobState::Running;
    job.nodes = {"aws-1"};
    actuator.calls.clear();
    cycle(placement, b, 130);
    CHECK(actuator.calls.empty());
    job.state = JobState::Pending;
    job.nodes.clear();
    job.reason = PendingReason("BeginTime");
    STRCMP_EQUAL("", errors(cycle(placement, b, 140)).c_str());
    CHECK(actuator.calls == (std::vector<std::string>{"place 8 local node= now"}));
    STRCMP_EQUAL("", placement.pinned_node(8).c_str());
    STRCMP_EQUAL("", ledger.scavengers().at(0).node.c_str());
}

TEST(ScavengerPlacement, PutsBackAndNeverPinsAgainAJobThatDidNotStartInTime)
{
    StateBuilder b = aws_site();
    placeholder_on(b, 50, "aws-1");
    ledger.save_scavenger(ScavengerRecord{9, {"aws"}, true, "", 0});
    waiting_scavenger(b, 9, {"aws"}, "JobHeldAdmin");
    ScavengerPlacement placement(actuator, ledger);
    cycle(placement, b, 100);
    b.state.standby.placeholders.clear();
    scavenger(b, 9).reason = PendingReason("Resources");
    actuator.calls.clear();
    actuator.whys.clear();
    cycle(placement, b, 100 + ScavengerPlacement::kStartGrace);
    CHECK(actuator.calls.empty()); // still within its time
    cycle(placement, b, 101 + ScavengerPlacement::kStartGrace);
    // Asked only for the cloud: held again (first), as before it was pinned.
    CHECK(actuator.calls == (std::vector<std::string>{"hold 9", "place 9 aws node="}));
    CHECK(actuator.whys == (std::vector<std::string>{"job 9 why:scavenger-job-only-for-cloud-nodes"}));
    placeholder_on(b, 51, "aws-2");
    scavenger(b, 9).reason = PendingReason("JobHeldAdmin");
    actuator.calls.clear();
    cycle(placement, b, 200);
    CHECK(actuator.calls.empty());
}

TEST(ScavengerPlacement, PutsBackAPinnedJobWhoseNodeWentDownOrIsTakenOrWhenTheSiteTurnsItOff)
{
    for (int variant = 0; variant < 3; ++variant) {
        test::ScratchDir dir{"scavenger-placement-variant"};
        Ledger own(dir.file("ledger.sqlite"));
        RecordingActuator act;
        PlaceholderPool own_pool{act};
        StateBuilder b = aws_site();
        own.save_scavenger(ScavengerRecord{8, {"local", "aws"}, false, "aws-1", 100});
        waiting_scavenger(b, 8, {"aws"});
        b.up("aws-1", 0);
        bool enabled = true;
        if (variant == 0) {
            b.node("aws-1").flags |= kNodePoweringDown;
        } else if (variant == 1) {
            b.running(70, 8, 90);
            b.state.snapshot.jobs.back().nodes = {"aws-1"};
        } else {
            enabled = false;
        }
        ScavengerPlacement placement(act, own);
        b.state.snapshot.time = 110;
        const auto steps = placement.settle(b.state, enabled);
        STRCMP_EQUAL("", errors(steps).c_str());
        CHECK(act.calls == (std::vector<std::string>{"place 8 local node="}));
        LONGS_EQUAL(1, steps.size());
        CHECK(steps[0].reason.find(variant == 0   ? "not up"
                                   : variant == 1 ? "job 70 runs on aws-1"
                                                  : "ScavengeWarmNodes=yes no more") != std::string::npos);
    }
}

TEST(ScavengerPlacement, ARestartKnowsThePinsAndFinishesOneACrashInterrupted)
{
    StateBuilder b = aws_site();
    placeholder_on(b, 50, "aws-1");
    // Pinned in the ledger and at Slurm; the crash came before the placeholder's cancel.
    ledger.save_scavenger(ScavengerRecord{9, {"aws"}, true, "aws-1", 100});
    waiting_scavenger(b, 9, {"aws"}, "Resources");
    ScavengerPlacement placement(actuator, ledger);
    b.state.snapshot.time = 105;
    placement.settle(b.state, true);
    LONGS_EQUAL(0, waiting_for_nodes(placement, b)); // the placeholder still holds aws-1
    STRCMP_EQUAL("", errors(placement.fill_warm_nodes(b.state, pool, 105)).c_str());
    STRCMP_EQUAL("", errors(placement.keep_off_cloud(b.state, true)).c_str());
    // The pin is sent again (the crash may have come before it), then its
    // placeholder goes; it is not held for asking only for the cloud.
    CHECK(actuator.calls == (std::vector<std::string>{"place 9 aws node=aws-1 released", "cancel 50"}));
    LONGS_EQUAL(1, waiting_for_nodes(placement, b));
}

TEST(ScavengerPlacement, APlaceholderThatIsCompletingHoldsTheNodeNoLonger)
{
    StateBuilder b = aws_site();
    placeholder_on(b, 50, "aws-1");
    b.state.standby.placeholders.back().state = JobState::Completing;
    ledger.save_scavenger(ScavengerRecord{9, {"local", "aws"}, false, "aws-1", 100});
    waiting_scavenger(b, 9, {"aws"});
    ScavengerPlacement placement(actuator, ledger);
    cycle(placement, b, 105);
    CHECK(actuator.calls.empty()); // nothing to cancel again
    LONGS_EQUAL(1, waiting_for_nodes(placement, b));
}

TEST(ScavengerPlacement, GivesAJobThatIsNoScavengerJobAnyMoreBackWhatItAskedFor)
{
    StateBuilder b = aws_site();
    ledger.save_scavenger(ScavengerRecord{9, {"local", "aws"}, false, "aws-1", 100});
    b.up("aws-1", 0);
    b.pending(9, 2); // its QOS changed (or ScavengerQOS= went in a reload)
    b.state.snapshot.jobs.back().partitions = {"aws"};
    ledger.save_scavenger(ScavengerRecord{10, {"aws"}, true, "", 0}); // held by burstd, unpinned
    b.pending(10, 2);
    b.state.snapshot.jobs.back().partitions = {"aws"};
    b.state.snapshot.jobs.back().reason = PendingReason("JobHeldAdmin");
    ScavengerPlacement placement(actuator, ledger);
    cycle(placement, b, 105);
    // Real work now: every partition it asked for, any node, released.
    CHECK(actuator.calls == (std::vector<std::string>{"place 9 local,aws node=", "place 10 aws node= released"}));
    CHECK(actuator.whys == (std::vector<std::string>{"job 10 why:"}));
    CHECK(ledger.scavengers().empty());
}

TEST(ScavengerPlacement, ForgetsJobsThatEnded)
{
    StateBuilder b = aws_site();
    ledger.save_scavenger(ScavengerRecord{8, {"local", "aws"}, false, "", 0});
    ledger.save_scavenger(ScavengerRecord{9, {"aws"}, true, "aws-1", 100});
    waiting_scavenger(b, 8, {"local"});
    ScavengerPlacement placement(actuator, ledger);
    b.state.snapshot.time = 110;
    STRCMP_EQUAL("", errors(placement.settle(b.state, true)).c_str());
    LONGS_EQUAL(1, ledger.scavengers().size());
    LONGS_EQUAL(8, ledger.scavengers().at(0).job);
}

TEST(ScavengerPlacement, APinSlurmRefusesIsUndoneAndNotTriedAgain)
{
    StateBuilder b = aws_site();
    placeholder_on(b, 50, "aws-1");
    ledger.save_scavenger(ScavengerRecord{8, {"local", "aws"}, false, "", 0});
    waiting_scavenger(b, 8, {"local"});
    actuator.unplaceable = {8};
    ScavengerPlacement placement(actuator, ledger);
    const auto steps = cycle(placement, b, 100);
    CHECK(errors(steps).find("Requested node configuration is not available (not pinned again)") !=
          std::string::npos);
    // Slurm may have taken part of the update: the job is put back in full.
    CHECK(actuator.calls == (std::vector<std::string>{"place 8 aws node=aws-1", "place 8 local node="}));
    STRCMP_EQUAL("", ledger.scavengers().at(0).node.c_str());
    actuator.calls.clear();
    cycle(placement, b, 110);
    CHECK(actuator.calls.empty());
}

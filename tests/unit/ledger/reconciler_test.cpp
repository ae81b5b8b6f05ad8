#include "ledger/reconciler.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

constexpr Time kNow = 10000;

LedgerRecord record(std::int64_t id, const std::string& node, InstanceState state,
                    const std::string& provider_id = "", Time requested_at = kNow - 1000)
{
    LedgerRecord r;
    r.id = id;
    r.token = "tok-" + std::to_string(id);
    r.node = node;
    r.node_group = "cpu";
    r.provider = "aws";
    r.instance_type = "m5.large";
    r.provider_id = provider_id;
    r.state = state;
    r.requested_at = requested_at;
    if (!provider_id.empty())
        r.launched_at = requested_at + 5;
    if (state == InstanceState::Terminating)
        r.terminate_requested_at = kNow - 60;
    return r;
}

ProviderInstance instance(const std::string& id, const std::string& node)
{
    ProviderInstance i;
    i.provider_id = id;
    i.node = node;
    i.state = "running";
    i.address = "10.0.0." + id.substr(id.size() - 1);
    return i;
}

Node cloud_node(const std::string& name, NodeBaseState base, std::uint32_t flags = 0)
{
    Node n;
    n.name = name;
    n.base = base;
    n.flags = kNodeCloud | flags;
    return n;
}

struct Scenario {
    ReconcileInput in;
    Scenario()
    {
        in.now = kNow;
        in.resume_timeout = 300;
        in.launch_grace = 120;
        in.listings.push_back({"aws", {}, true});
    }
    Scenario& with(LedgerRecord r)
    {
        in.records.push_back(std::move(r));
        return *this;
    }
    Scenario& listed(ProviderInstance i)
    {
        in.listings[0].instances.push_back(std::move(i));
        return *this;
    }
    Scenario& node(Node n)
    {
        in.nodes.push_back(std::move(n));
        return *this;
    }
    std::vector<RepairAction> run() const { return reconcile(in); }
};

std::vector<RepairAction> of_kind(const std::vector<RepairAction>& actions, RepairKind kind)
{
    std::vector<RepairAction> out;
    std::copy_if(actions.begin(), actions.end(), std::back_inserter(out),
                 [&](const RepairAction& a) { return a.kind == kind; });
    return out;
}

bool mentions(const RepairAction& a, const std::string& text)
{
    return a.reason.find(text) != std::string::npos;
}

} // namespace

TEST_GROUP(Reconciler){};

TEST(Reconciler, AHealthyInstanceNeedsNothing)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Running, "i-1"))
                       .listed(instance("i-1", "c1"))
                       .node(cloud_node("c1", NodeBaseState::Idle))
                       .run();
    CHECK(actions.empty());
}

TEST(Reconciler, TerminatesAnInstanceTheLedgerNeverHeardOf)
{
    auto actions = Scenario().listed(instance("i-9", "c1")).run();
    LONGS_EQUAL(1, actions.size());
    CHECK(actions[0].kind == RepairKind::TerminateInstance);
    STRCMP_EQUAL("i-9", actions[0].provider_id.c_str());
    STRCMP_EQUAL("aws", actions[0].provider.c_str());
    CHECK(actions[0].token.empty());
    CHECK(mentions(actions[0], "not in the ledger"));
}

// An EC2 fleet's instances carry no node tag: one listed without a record
// may be a batch's whose answer a crash lost, which a relaunch with the
// same tokens gets back; it is an orphan only once no such launch waits.
TEST(Reconciler, SparesAnUntaggedUnknownInstanceWhileALaunchOfItsProviderAwaitsItsAnswer)
{
    auto waiting = Scenario()
                       .with(record(1, "c1", InstanceState::Requested, "", kNow - 30))
                       .listed(instance("i-9", ""))
                       .run();
    CHECK(waiting.empty());
    auto tagged = Scenario()
                      .with(record(1, "c1", InstanceState::Requested, "", kNow - 30))
                      .listed(instance("i-9", "c7"))
                      .run();
    LONGS_EQUAL(1, tagged.size()); // its node tag says it is no launch of c1's
    CHECK(tagged[0].kind == RepairKind::TerminateInstance);
    auto late = Scenario()
                    .with(record(1, "c1", InstanceState::Requested, "", kNow - 500))
                    .listed(instance("i-9", ""))
                    .node(cloud_node("c1", NodeBaseState::Idle, kNodePoweredDown))
                    .run();
    CHECK(std::any_of(late.begin(), late.end(), [](const RepairAction& a) {
        return a.kind == RepairKind::TerminateInstance && a.provider_id == "i-9";
    }));
}

TEST(Reconciler, TerminatesAnInstanceTheLedgerSaysIsTerminatedOrFailed)
{
    for (InstanceState closed : {InstanceState::Terminated, InstanceState::Failed}) {
        auto actions =
            Scenario().with(record(1, "c1", closed, "i-1")).listed(instance("i-1", "c1")).run();
        LONGS_EQUAL(1, actions.size());
        CHECK(actions[0].kind == RepairKind::TerminateInstance);
        CHECK(actions[0].token.empty()); // the record stays closed
        CHECK(mentions(actions[0], std::string("ledger says ") + std::string(to_string(closed))));
    }
}

TEST(Reconciler, RetriesATerminationThatDidNotHappen)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Terminating, "i-1"))
                       .listed(instance("i-1", "c1"))
                       .run();
    LONGS_EQUAL(1, actions.size());
    CHECK(actions[0].kind == RepairKind::TerminateInstance);
    STRCMP_EQUAL("tok-1", actions[0].token.c_str());
    CHECK(mentions(actions[0], "retrying"));
}

TEST(Reconciler, ClosesATerminationOnceTheInstanceIsGone)
{
    auto gone = instance("i-1", "c1");
    gone.gone = true;
    auto actions =
        Scenario().with(record(1, "c1", InstanceState::Terminating, "i-1")).listed(gone).run();
    LONGS_EQUAL(1, actions.size());
    CHECK(actions[0].kind == RepairKind::MarkTerminated);
    STRCMP_EQUAL("tok-1", actions[0].token.c_str());
}

TEST(Reconciler, AdoptsTheInstanceOfAnIntentWhoseAnswerWasLost)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Requested, "", kNow - 60))
                       .listed(instance("i-5", "c1"))
                       .node(cloud_node("c1", NodeBaseState::Idle, kNodePoweringUp))
                       .run();
    LONGS_EQUAL(1, actions.size());
    CHECK(actions[0].kind == RepairKind::AdoptInstance);
    STRCMP_EQUAL("tok-1", actions[0].token.c_str());
    STRCMP_EQUAL("i-5", actions[0].provider_id.c_str());
    STRCMP_EQUAL("10.0.0.5", actions[0].address.c_str());
}

TEST(Reconciler, FailsAnOldIntentWithoutInstanceAndPowersTheNodeDown)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Requested, "", kNow - 200))
                       .node(cloud_node("c1", NodeBaseState::Idle, kNodePoweringUp))
                       .run();
    LONGS_EQUAL(2, actions.size());
    CHECK(actions[0].kind == RepairKind::MarkFailed);
    STRCMP_EQUAL("tok-1", actions[0].token.c_str());
    CHECK(mentions(actions[0], "no instance at aws"));
    CHECK(actions[1].kind == RepairKind::PowerDownNode);
    STRCMP_EQUAL("c1", actions[1].node.c_str());
}

TEST(Reconciler, LeavesAYoungIntentAloneWhileTheLaunchMayBeInFlight)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Requested, "", kNow - 60))
                       .node(cloud_node("c1", NodeBaseState::Idle, kNodePoweringUp))
                       .run();
    CHECK(actions.empty());
}

TEST(Reconciler, DoesNotPowerDownANodeAlreadyPoweredDown)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Requested, "", kNow - 200))
                       .node(cloud_node("c1", NodeBaseState::Idle, kNodePoweredDown))
                       .run();
    LONGS_EQUAL(1, actions.size());
    CHECK(actions[0].kind == RepairKind::MarkFailed);
}

TEST(Reconciler, ClosesALaunchedRecordWhoseInstanceVanished)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Running, "i-1"))
                       .node(cloud_node("c1", NodeBaseState::Idle))
                       .run();
    LONGS_EQUAL(2, actions.size());
    CHECK(actions[0].kind == RepairKind::MarkTerminated);
    CHECK(mentions(actions[0], "i-1 no longer exists"));
    CHECK(actions[1].kind == RepairKind::PowerDownNode);
}

TEST(Reconciler, AFreshlyLaunchedRecordMayNotBeListedYet)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Launching, "i-1", kNow - 30))
                       .node(cloud_node("c1", NodeBaseState::Idle, kNodePoweringUp))
                       .run();
    CHECK(actions.empty());
}

TEST(Reconciler, ConcludesNothingFromAbsencesInAnIncompleteListing)
{
    Scenario s;
    s.with(record(1, "c1", InstanceState::Requested, "", kNow - 500))
        .with(record(2, "c2", InstanceState::Running, "i-2"))
        .with(record(3, "c3", InstanceState::Terminating, "i-3"))
        .listed(instance("i-9", "c9"));
    s.in.listings[0].complete = false;
    auto actions = s.run();
    LONGS_EQUAL(1, actions.size()); // the leaked instance it did see is still ended
    CHECK(actions[0].kind == RepairKind::TerminateInstance);
    STRCMP_EQUAL("i-9", actions[0].provider_id.c_str());
}

TEST(Reconciler, LeavesRecordsOfAnUnlistedProviderAlone)
{
    Scenario s;
    auto r = record(1, "c1", InstanceState::Running, "vm-1");
    r.provider = "gcp";
    s.with(r).node(cloud_node("c1", NodeBaseState::Idle));
    CHECK(s.run().empty());
}

TEST(Reconciler, KeepsProvidersApartEvenWithEqualIds)
{
    Scenario s;
    auto r = record(1, "c1", InstanceState::Running, "i-1");
    r.provider = "gcp";
    s.with(r).listed(instance("i-1", "c1"));
    auto actions = s.run();
    LONGS_EQUAL(1, actions.size());
    CHECK(actions[0].kind == RepairKind::TerminateInstance);
    STRCMP_EQUAL("aws", actions[0].provider.c_str());
}

TEST(Reconciler, PowersDownANodeStuckPoweringUpAndTerminatesItsInstance)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Launching, "i-1", kNow - 400))
                       .listed(instance("i-1", "c1"))
                       .node(cloud_node("c1", NodeBaseState::Idle, kNodePoweringUp))
                       .run();
    LONGS_EQUAL(2, actions.size());
    CHECK(actions[0].kind == RepairKind::TerminateInstance);
    STRCMP_EQUAL("tok-1", actions[0].token.c_str());
    CHECK(mentions(actions[0], "past ResumeTimeout=300s"));
    CHECK(actions[1].kind == RepairKind::PowerDownNode);
}

TEST(Reconciler, WaitsForANodePoweringUpWithinResumeTimeout)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Launching, "i-1", kNow - 250))
                       .listed(instance("i-1", "c1"))
                       .node(cloud_node("c1", NodeBaseState::Idle, kNodePoweringUp))
                       .run();
    CHECK(actions.empty());
}

TEST(Reconciler, StuckNodeWithAnUnansweredIntentFailsItOnce)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Requested, "", kNow - 400))
                       .node(cloud_node("c1", NodeBaseState::Idle, kNodePoweringUp))
                       .run();
    LONGS_EQUAL(1, of_kind(actions, RepairKind::MarkFailed).size());
    LONGS_EQUAL(1, of_kind(actions, RepairKind::PowerDownNode).size());
    LONGS_EQUAL(2, actions.size());
}

TEST(Reconciler, StuckNodeWithAnAdoptedInstanceAdoptsThenTerminates)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Requested, "", kNow - 400))
                       .listed(instance("i-1", "c1"))
                       .node(cloud_node("c1", NodeBaseState::Idle, kNodePoweringUp))
                       .run();
    LONGS_EQUAL(3, actions.size());
    CHECK(actions[0].kind == RepairKind::AdoptInstance);
    CHECK(actions[1].kind == RepairKind::TerminateInstance);
    STRCMP_EQUAL("tok-1", actions[1].token.c_str());
    CHECK(actions[2].kind == RepairKind::PowerDownNode);
}

TEST(Reconciler, ADownCloudNodeAfterAFailedResumeIsPoweredDownAndItsInstanceEnded)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Launching, "i-1"))
                       .listed(instance("i-1", "c1"))
                       .node(cloud_node("c1", NodeBaseState::Down))
                       .run();
    LONGS_EQUAL(2, actions.size());
    CHECK(actions[0].kind == RepairKind::TerminateInstance);
    CHECK(mentions(actions[0], "DOWN"));
    CHECK(actions[1].kind == RepairKind::PowerDownNode);
    CHECK(mentions(actions[1], "failed resume"));
}

TEST(Reconciler, ADownCloudNodeWithNothingBehindItIsStillPoweredDown)
{
    auto actions = Scenario().node(cloud_node("c1", NodeBaseState::Down)).run();
    LONGS_EQUAL(1, actions.size());
    CHECK(actions[0].kind == RepairKind::PowerDownNode);
}

TEST(Reconciler, IgnoresDownNodesThatAreNotCloudOrAlreadyPoweredDown)
{
    Node local;
    local.name = "n1";
    local.base = NodeBaseState::Down;
    auto actions = Scenario()
                       .node(local)
                       .node(cloud_node("c2", NodeBaseState::Down, kNodePoweredDown))
                       .node(cloud_node("c3", NodeBaseState::Down, kNodePoweringDown))
                       .run();
    CHECK(actions.empty());
}

TEST(Reconciler, KeepsTheRunningOneOfTwoInstancesForANode)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Launching, "i-1"))
                       .with(record(2, "c1", InstanceState::Running, "i-2"))
                       .listed(instance("i-1", "c1"))
                       .listed(instance("i-2", "c1"))
                       .node(cloud_node("c1", NodeBaseState::Allocated))
                       .run();
    LONGS_EQUAL(1, actions.size());
    CHECK(actions[0].kind == RepairKind::TerminateInstance);
    STRCMP_EQUAL("i-1", actions[0].provider_id.c_str());
    STRCMP_EQUAL("tok-1", actions[0].token.c_str());
    CHECK(mentions(actions[0], "second instance for node c1: keeping i-2"));
}

TEST(Reconciler, KeepsTheOlderOfTwoEquallyLaunchedInstances)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Launching, "i-1"))
                       .with(record(2, "c1", InstanceState::Launching, "i-2"))
                       .listed(instance("i-2", "c1"))
                       .listed(instance("i-1", "c1"))
                       .run();
    LONGS_EQUAL(1, actions.size());
    STRCMP_EQUAL("i-2", actions[0].provider_id.c_str());
}

TEST(Reconciler, PrefersALaunchedInstanceOverAnAdoptableOne)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Requested))
                       .with(record(2, "c1", InstanceState::Launching, "i-2"))
                       .listed(instance("i-7", "c1"))
                       .listed(instance("i-2", "c1"))
                       .run();
    LONGS_EQUAL(1, actions.size());
    CHECK(actions[0].kind == RepairKind::TerminateInstance);
    STRCMP_EQUAL("i-7", actions[0].provider_id.c_str());
    STRCMP_EQUAL("tok-1", actions[0].token.c_str()); // the intent it answered is closed by terminating
}

TEST(Reconciler, OneIntentAdoptsOneInstanceAndTheSecondIsALeak)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Requested))
                       .listed(instance("i-1", "c1"))
                       .listed(instance("i-2", "c1"))
                       .run();
    LONGS_EQUAL(2, actions.size());
    CHECK(actions[0].kind == RepairKind::AdoptInstance);
    STRCMP_EQUAL("i-1", actions[0].provider_id.c_str());
    CHECK(actions[1].kind == RepairKind::TerminateInstance);
    STRCMP_EQUAL("i-2", actions[1].provider_id.c_str());
}

TEST(Reconciler, AReclaimedInstanceIsEndedAndItsNodePoweredDown)
{
    auto reclaimed = instance("i-1", "c1");
    reclaimed.reclaimed = true;
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Running, "i-1"))
                       .listed(reclaimed)
                       .node(cloud_node("c1", NodeBaseState::Allocated))
                       .run();
    LONGS_EQUAL(2, actions.size());
    CHECK(actions[0].kind == RepairKind::TerminateInstance);
    CHECK(mentions(actions[0], "reclaimed"));
    CHECK(actions[1].kind == RepairKind::PowerDownNode);
}

TEST(Reconciler, EndsAnInstanceWhoseNodeSlurmHasPoweredDown)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Running, "i-1"))
                       .listed(instance("i-1", "c1"))
                       .node(cloud_node("c1", NodeBaseState::Idle, kNodePoweredDown))
                       .run();
    LONGS_EQUAL(1, actions.size());
    CHECK(actions[0].kind == RepairKind::TerminateInstance);
    CHECK(mentions(actions[0], "powered down in Slurm"));
}

TEST(Reconciler, SparesAFreshInstanceOfANodeSeenPoweredDownBeforeItsResume)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Launching, "i-1", kNow - 10))
                       .listed(instance("i-1", "c1"))
                       .node(cloud_node("c1", NodeBaseState::Idle, kNodePoweredDown))
                       .run();
    CHECK(actions.empty());
}

TEST(Reconciler, EndsAtOnceAnInstanceWhoseNodeRegisteredAndWasSuspendedSince)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Running, "i-1", kNow - 10))
                       .listed(instance("i-1", "c1"))
                       .node(cloud_node("c1", NodeBaseState::Idle, kNodePoweredDown))
                       .run();
    LONGS_EQUAL(1, actions.size());
    CHECK(actions[0].kind == RepairKind::TerminateInstance);
}

TEST(Reconciler, EveryActionCarriesAReasonAndKindsComeInApplicationOrder)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Requested))
                       .with(record(2, "c2", InstanceState::Requested, "", kNow - 500))
                       .with(record(3, "c3", InstanceState::Terminating, "i-3"))
                       .listed(instance("i-9", "c9"))
                       .listed(instance("i-1", "c1"))
                       .node(cloud_node("c2", NodeBaseState::Idle, kNodePoweringUp))
                       .node(cloud_node("c4", NodeBaseState::Down))
                       .run();
    LONGS_EQUAL(6, actions.size());
    for (std::size_t i = 0; i < actions.size(); ++i) {
        CHECK(!actions[i].reason.empty());
        if (i > 0)
            CHECK(actions[i - 1].kind <= actions[i].kind);
    }
    STRCMP_EQUAL("power-down-node", std::string(to_string(actions.back().kind)).c_str());
}

TEST(Reconciler, AReclaimedInstanceAlreadyGoneStillHandsItsNodeAndJobsBack)
{
    auto reclaimed = instance("i-1", "c1");
    reclaimed.reclaimed = true;
    reclaimed.gone = true;
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Running, "i-1"))
                       .listed(reclaimed)
                       .node(cloud_node("c1", NodeBaseState::Allocated, kNodeNotResponding))
                       .run();
    LONGS_EQUAL(2, actions.size());
    CHECK(actions[0].kind == RepairKind::TerminateInstance);
    STRCMP_EQUAL("tok-1", actions[0].token.c_str());
    CHECK(mentions(actions[0], "reclaimed"));
    CHECK(actions[1].kind == RepairKind::PowerDownNode);
    CHECK(mentions(actions[1], "requeueing its jobs"));
    CHECK_FALSE(actions[1].boot_failure);
}

TEST(Reconciler, AGoneReclaimedInstanceOfAClosedRecordIsLeftAlone)
{
    auto reclaimed = instance("i-1", "c1");
    reclaimed.reclaimed = true;
    reclaimed.gone = true;
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Terminated, "i-1"))
                       .listed(reclaimed)
                       .node(cloud_node("c1", NodeBaseState::Idle, kNodePoweredDown))
                       .run();
    CHECK(actions.empty());
}

TEST(Reconciler, ARunningNodeWhoseInstanceVanishedIsPoweredDownButNoBootFailure)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Running, "i-1"))
                       .node(cloud_node("c1", NodeBaseState::Allocated, kNodeNotResponding))
                       .run();
    auto down = of_kind(actions, RepairKind::PowerDownNode);
    LONGS_EQUAL(1, down.size());
    CHECK_FALSE(down[0].boot_failure);
    LONGS_EQUAL(1, of_kind(actions, RepairKind::MarkTerminated).size());
}

TEST(Reconciler, ANodeThatNeverCameUpIsABootFailureOneThatRanIsNot)
{
    auto stuck = Scenario()
                     .with(record(1, "c1", InstanceState::Launching, "i-1", kNow - 400))
                     .listed(instance("i-1", "c1"))
                     .node(cloud_node("c1", NodeBaseState::Idle, kNodePoweringUp))
                     .run();
    CHECK(of_kind(stuck, RepairKind::PowerDownNode).at(0).boot_failure);
    auto failed_resume = Scenario()
                             .with(record(1, "c1", InstanceState::Launching, "i-1"))
                             .listed(instance("i-1", "c1"))
                             .node(cloud_node("c1", NodeBaseState::Down))
                             .run();
    CHECK(of_kind(failed_resume, RepairKind::PowerDownNode).at(0).boot_failure);
    auto ran = Scenario()
                   .with(record(1, "c1", InstanceState::Running, "i-1"))
                   .listed(instance("i-1", "c1"))
                   .node(cloud_node("c1", NodeBaseState::Down))
                   .run();
    CHECK_FALSE(of_kind(ran, RepairKind::PowerDownNode).at(0).boot_failure);
}

TEST(Reconciler, AnInstanceGoneBeforeItsNodeRegisteredIsABootFailure)
{
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Launching, "i-1"))
                       .node(cloud_node("c1", NodeBaseState::Idle, kNodePoweringUp))
                       .run();
    auto down = of_kind(actions, RepairKind::PowerDownNode);
    LONGS_EQUAL(1, down.size());
    CHECK(down[0].boot_failure);
}

TEST(Reconciler, ANodeSlurmLeftDownAndPoweredDownAfterResumeTimeoutIsPoweredDownAgain)
{
    // What 22.05 shows after "not resumed by ResumeTimeout - marking down and power_save".
    auto actions = Scenario()
                       .with(record(1, "c1", InstanceState::Terminated, "i-1"))
                       .node(cloud_node("c1", NodeBaseState::Down, kNodePoweredDown | kNodeNotResponding))
                       .run();
    LONGS_EQUAL(1, actions.size());
    CHECK(actions[0].kind == RepairKind::PowerDownNode);
    CHECK(mentions(actions[0], "failed resume"));
    CHECK_FALSE(actions[0].boot_failure); // counted when its record closed
    // An admin's DOWN on a powered-down node is not burstd's to undo.
    CHECK(Scenario().node(cloud_node("c2", NodeBaseState::Down, kNodePoweredDown)).run().empty());
}

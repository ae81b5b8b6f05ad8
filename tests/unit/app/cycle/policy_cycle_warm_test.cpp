#include "app/cycle/policy_cycle.hpp"

#include "app/cycle/policy_cycle_fakes.hpp"
#include "scratch_dir.hpp"

#include <algorithm>
#include <sstream>

#include <CppUTest/TestHarness.h>

using namespace burst;
using namespace burst::test;

namespace {

// A placeholder burstd submitted, running on `node` (which Slurm shows allocated).
Job placeholder_on(JobId id, const std::string& node)
{
    Job p;
    p.id = id;
    p.name = kPlaceholderName;
    p.qos = "hold";
    p.state = JobState::Running;
    p.partitions = {"cloud"};
    p.nodes = {node};
    p.cpus = 2;
    return p;
}

} // namespace

TEST_GROUP(PolicyCycleWarm)
{
    test::ScratchDir scratch{"policy-cycle-warm-test"};
    std::string path = scratch.file("ledger.sqlite");
    std::ostringstream out;
    Logger log{out, LogLevel::Debug, false};
    ManualClock clock{1000};
    RecordingActuator actuator;
    BurstdConfig config;

    void setup() override
    {
        NodeGroup g;
        g.name = "cloud";
        g.provider = "none";
        g.partition = "cloud";
        g.cpus = 2;
        g.nodes = {"c1", "c2"};
        config.node_groups = {g};
        config.standby_qos.placeholder = "hold";
    }

    void cycle(const Snapshot& snapshot, std::vector<Action> actions, const std::string& name = "scripted")
    {
        Ledger ledger(path);
        InstanceManager instances =
            instances_for(config.node_groups, std::make_unique<NoProvider>(), ledger, actuator, clock, log);
        PolicyChain chain;
        chain.push_back(std::make_unique<ScriptedPolicy>(std::move(actions), name));
        PolicyCycle pc(std::move(chain), ledger, actuator, instances, 1000);
        pc.run(CycleContext{config, &snapshot, clock.now(), log});
    }
};

TEST(PolicyCycleWarm, APlaceholderIsCancelledBeforeAJobIsRoutedToItsNode)
{
    Snapshot s;
    s.nodes = {cloud_node("c1", 0, 2), cloud_node("c2", kNodePoweredDown)};
    Job job;
    job.id = 7;
    job.cpus = 2;
    job.partitions = {"local"};
    s.jobs = {job, placeholder_on(50, "c1")};
    cycle(s, {Action{RouteToCloud{7, "cloud"}, "the queue is long"}});
    CHECK(actuator.calls == (std::vector<std::string>{"cancel 50", "job 7 local,cloud"}));
    CHECK(out.str().find("decision: cancel placeholder job(s) 50 for job 7: real work takes warm nodes first") !=
          std::string::npos);
}

TEST(PolicyCycleWarm, TheWarmPoolSubmitsThroughSlurmAndAnUnchangedPoolIsNotNews)
{
    Snapshot s;
    s.nodes = {cloud_node("c1", kNodePoweredDown), cloud_node("c2", kNodePoweredDown)};
    cycle(s, {Action{KeepPlaceholders{"cloud", 1}, "forecast 1"}}, "warm");
    CHECK(actuator.calls == std::vector<std::string>{"submit burst-placeholder partition=cloud qos=hold -> 9000"});
    CHECK(out.str().find("decision: keep 1 node(s) of cloud on: submit 1 placeholder job(s): forecast 1") !=
          std::string::npos);
    s.jobs = {placeholder_on(9000, "c1")};
    s.jobs[0].state = JobState::Pending;
    s.jobs[0].nodes.clear();
    out.str("");
    cycle(s, {Action{KeepPlaceholders{"cloud", 1}, "forecast 1"}}, "warm");
    CHECK(actuator.calls.size() == 1);
    CHECK(out.str().find("keep 1 node(s)") == std::string::npos);
}

TEST(PolicyCycleWarm, WithoutAWarmLinkAnyMoreBurstdsPlaceholdersAreCancelledAndTheirNodesPoweredDown)
{
    Snapshot s;
    s.nodes = {cloud_node("c1", 0, 2), cloud_node("c2", kNodePoweredDown)};
    s.jobs = {placeholder_on(50, "c1")};
    cycle(s, {});
    CHECK(actuator.calls == (std::vector<std::string>{"cancel 50", "POWER_DOWN c1"}));
    CHECK(out.str().find("keep no warm node of cloud: cancel placeholder job(s) 50, power down c1: no Policy=warm "
                         "line any more") != std::string::npos);
}

TEST(PolicyCycleWarm, AWaitingScavengerJobLosesTheCloudPartitionsOnceAndIsNeverRouted)
{
    config.standby_qos.scavenger = "scav";
    Snapshot s;
    s.nodes = {cloud_node("c1", kNodePoweredDown), cloud_node("c2", kNodePoweredDown)};
    Job scavenger;
    scavenger.id = 8;
    scavenger.qos = "scav";
    scavenger.partitions = {"local", "cloud"};
    Job cloud_only = scavenger;
    cloud_only.id = 9;
    cloud_only.partitions = {"cloud"};
    s.jobs = {scavenger, cloud_only};
    cycle(s, {Action{RouteToCloud{8, "cloud"}, "a policy that misread it"}});
    // Job 8 is not a job any policy may act on: the route finds nothing;
    // job 9, with the cloud alone, waits held.
    CHECK(actuator.calls == (std::vector<std::string>{"job 8 local", "hold 9"}));
    CHECK(std::find(actuator.whys.begin(), actuator.whys.end(), "job 9 why:scavenger-job-only-for-cloud-nodes") !=
          actuator.whys.end());
    CHECK(out.str().find("keep scavenger job 8 off the cloud (partitions local): jobs of ScavengerQOS never run on "
                         "cloud nodes") != std::string::npos);
    CHECK(out.str().find("route job 8 to group cloud (a policy that misread it) failed: job is not in the snapshot") !=
          std::string::npos);
}

TEST(PolicyCycleWarm, WithScavengeWarmNodesAWaitingScavengerTakesAPlaceholdersNodeAndNoOtherIsAskedFor)
{
    config.standby_qos.scavenger = "scav";
    config.scavenge_warm_nodes = true;
    Snapshot s;
    s.nodes = {cloud_node("c1", 0, 2), cloud_node("c2", kNodePoweredDown)};
    Job scavenger;
    scavenger.id = 8;
    scavenger.qos = "scav";
    scavenger.partitions = {"local", "cloud"};
    scavenger.reason = PendingReason("Resources");
    s.jobs = {scavenger, placeholder_on(50, "c1")};
    const std::vector<Action> warm = {Action{KeepPlaceholders{"cloud", 1}, "forecast 1"}};
    cycle(s, warm, "warm");
    // Unknown until its partitions are taken (what it asked for is kept then).
    CHECK(actuator.calls == (std::vector<std::string>{"job 8 local"}));
    actuator.calls.clear();
    s.jobs[0].partitions = {"local"};
    clock.advance(1);
    cycle(s, warm, "warm");
    CHECK(actuator.calls == (std::vector<std::string>{"place 8 cloud node=c1", "cancel 50"}));
    CHECK(out.str().find("decision: put scavenger job 8 on warm node c1, cancel placeholder job 50: "
                         "ScavengeWarmNodes=yes: it takes the place of placeholder job 50") != std::string::npos);
    // The next cycles (each a restart here: the pin comes from the ledger)
    // see the placeholder gone and the job waiting for c1: no placeholder
    // is submitted for the pool's one node, and the job is not put back.
    actuator.calls.clear();
    s.jobs = {s.jobs[0]};
    s.jobs[0].partitions = {"cloud"};
    s.nodes[0] = cloud_node("c1", 0, 0);
    clock.advance(1);
    cycle(s, warm, "warm");
    CHECK(actuator.calls.empty());
    // Running there, it holds the node; a real job routed to the group takes it.
    s.jobs[0].state = JobState::Running;
    s.jobs[0].nodes = {"c1"};
    s.nodes[0] = cloud_node("c1", 0, 2);
    Job real;
    real.id = 7;
    real.cpus = 2;
    real.partitions = {"local"};
    s.jobs.push_back(real);
    clock.advance(1);
    cycle(s, {Action{RouteToCloud{7, "cloud"}, "the queue is long"}, warm[0]}, "warm");
    CHECK(actuator.calls == (std::vector<std::string>{"requeue 8", "job 7 local,cloud"}));
}

TEST(PolicyCycleWarm, APolicyReleasingIdleNodesLeavesTheOnesPlaceholdersHold)
{
    Snapshot s;
    s.nodes = {cloud_node("c1", 0, 2), cloud_node("c2", 0)};
    s.jobs = {placeholder_on(50, "c1")};
    cycle(s, {Action{ReleaseNodes{{"c1", "c2"}, true}, "idle"}, Action{KeepPlaceholders{"cloud", 1}, "forecast 1"}},
          "warm");
    CHECK(actuator.calls == std::vector<std::string>{"POWER_DOWN_ASAP c2"});
}

TEST(PolicyCycleWarm, RealJobsWaitingInTheGroupsPartitionTakeWarmNodesBeforeAnyForecast)
{
    Snapshot s;
    s.nodes = {cloud_node("c1", 0, 2), cloud_node("c2", kNodePoweredDown)};
    Job waiting;
    waiting.id = 7;
    waiting.cpus = 2;
    waiting.partitions = {"cloud"};
    s.jobs = {waiting, placeholder_on(50, "c1")};
    cycle(s, {}, "warm"); // the warm pool's first tick: it asks nothing yet
    CHECK(actuator.calls == std::vector<std::string>{"cancel 50"});
    CHECK(out.str().find("decision: cancel placeholder job(s) 50: real jobs wait in cloud") != std::string::npos);
}

TEST(PolicyCycleWarm, InteractiveHoldsAreNeverRoutedAndTheCycleKeepsTheirCount)
{
    config.standby_qos.interactive_hold = "ihold";
    config.interactive_qos = "interactive";
    config.interactive = {InteractiveReserve{"local", 2}};
    Snapshot s;
    s.time = 900;
    Node n1;
    n1.name = "n1";
    n1.cpus = 4;
    n1.alloc_cpus = 1;
    n1.base = NodeBaseState::Mixed;
    s.nodes = {n1, cloud_node("c1", kNodePoweredDown), cloud_node("c2", kNodePoweredDown)};
    s.partitions = {Partition{"local", {"n1", "c1"}}, Partition{"cloud", {"c1", "c2"}}};
    Job running_hold;
    running_hold.id = 60;
    running_hold.name = kInteractiveHoldName;
    running_hold.qos = "ihold";
    running_hold.state = JobState::Running;
    running_hold.partitions = {"local"};
    running_hold.nodes = {"n1"};
    running_hold.cpus = 1;
    Job queued_hold = running_hold;
    queued_hold.id = 61;
    queued_hold.state = JobState::Pending;
    queued_hold.nodes.clear();
    s.jobs = {running_hold, queued_hold};
    cycle(s, {Action{RouteToCloud{61, "cloud"}, "a policy that misread it"}});
    // Two cores kept, two holds already: nothing submitted; the queued hold is no job to route.
    CHECK(actuator.calls.empty());
    CHECK(out.str().find("route job 61 to group cloud (a policy that misread it) failed: job is not in the snapshot") !=
          std::string::npos);
    // One hold shown: one more, off the partition's node group nodes.
    s.jobs = {running_hold};
    cycle(s, {});
    CHECK(actuator.calls ==
          std::vector<std::string>{"submit burst-interactive-hold partition=local qos=ihold cpus=1 exclude=c1 -> 9000"});
    CHECK(out.str().find("decision: submit 1 interactive hold(s) in local: Interactive= keeps 2 core(s) there") !=
          std::string::npos);
}

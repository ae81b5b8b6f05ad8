#include "app/cycle/policy_cycle.hpp"

#include <filesystem>
#include <sstream>
#include <unistd.h>

#include "app/cycle/policy_cycle_fakes.hpp"
#include "scratch_dir.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;
using namespace burst::test;

namespace {

Node cloud_node(const std::string& name, bool powered_down, std::uint32_t alloc = 0)
{
    Node n;
    n.name = name;
    n.cpus = 4;
    n.alloc_cpus = alloc;
    n.base = NodeBaseState::Idle;
    n.flags = powered_down ? (kNodeCloud | kNodePoweredDown) : kNodeCloud;
    n.partitions = {"cloud"};
    return n;
}

struct Fixture {
    Fixture()
        : scratch("policy-cycle-test"), ledger(scratch.file("ledger.sqlite")), log(out, LogLevel::Debug, false)
    {
        NodeGroup g;
        g.name = "cloud";
        g.provider = "none";
        g.partition = "cloud";
        g.cpus = 4;
        g.nodes = {"c1", "c2", "c3"};
        config.node_groups = {g};
        Job j;
        j.id = 7;
        j.cpus = 6; // two nodes' worth
        j.partitions = {"local"};
        snapshot.jobs = {j};
        snapshot.nodes = {cloud_node("c1", false, 4), cloud_node("c2", true), cloud_node("c3", true)};
    }
    std::vector<std::string> run(std::vector<Action> actions)
    {
        InstanceManager instances =
            instances_for(config.node_groups, std::make_unique<NoProvider>(), ledger, actuator, clock, log);
        std::vector<std::unique_ptr<Policy>> chain;
        chain.push_back(std::make_unique<ScriptedPolicy>(std::move(actions)));
        PolicyCycle cycle(std::move(chain), ledger, actuator, instances, 1000);
        std::vector<std::string> launched;
        cycle.set_route_launcher([&](const std::vector<std::string>& nodes) {
            launched.insert(launched.end(), nodes.begin(), nodes.end());
        });
        cycle.set_route_observer([&](JobId job) { followed.push_back(job); });
        cycle.run(CycleContext{config, &snapshot, 100, log});
        stats = cycle.stats();
        return launched;
    }
    test::ScratchDir scratch;
    Ledger ledger;
    RecordingActuator actuator;
    ManualClock clock{100};
    std::ostringstream out;
    Logger log;
    BurstdConfig config;
    Snapshot snapshot;
    std::vector<JobId> followed;
    PolicyCycleStats stats;
};

Action route(JobId job) { return Action{RouteToCloud{job, "cloud"}, "test"}; }

} // namespace

TEST_GROUP(PolicyCycleRouteLaunch){};

TEST(PolicyCycleRouteLaunch, ARoutedJobGetsTheFirstFreePoweredDownNodesLaunchedAtOnce)
{
    Fixture f;
    auto launched = f.run({route(7)});
    // c1 is up but full; the job needs 6 cores = two 4-core nodes.
    CHECK(launched == (std::vector<std::string>{"c2", "c3"}));
    CHECK(f.actuator.calls == (std::vector<std::string>{"job 7 local,cloud", "POWER_UP c2", "POWER_UP c3"}));
    CHECK(f.followed == std::vector<JobId>{7});
    LONGS_EQUAL(1, (f.stats.actions[{"route", "applied"}]));
    LONGS_EQUAL(1, (f.stats.actions[{"launch", "applied"}]));
}

TEST(PolicyCycleRouteLaunch, NoLaunchWhenUpNodesHaveRoomOrTheDecisionHires)
{
    Fixture f;
    f.snapshot.jobs[0].cpus = 2;
    f.snapshot.nodes[0].alloc_cpus = 1; // c1 has 3 free cores
    CHECK(f.run({route(7)}).empty());
    CHECK(f.actuator.calls == std::vector<std::string>{"job 7 local,cloud"});

    Fixture g;
    auto launched = g.run({route(7), Action{HireNodes{"cloud", 1}, "test"}});
    CHECK(launched.empty());
    // The hire powers up one node, not the route.
    CHECK(g.actuator.calls == (std::vector<std::string>{"job 7 local,cloud", "POWER_UP c2"}));
}

TEST(PolicyCycleRouteLaunch, NoLaunchWhenTooFewNodesAreFree)
{
    Fixture f;
    f.snapshot.jobs[0].cpus = 12; // three nodes, but c1 is busy
    CHECK(f.run({route(7)}).empty());
    CHECK(f.followed == std::vector<JobId>{7});
}

#include "app/policy_cycle.hpp"

#include <filesystem>
#include <sstream>
#include <unistd.h>

#include "scratch_dir.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

// Returns the same actions every cycle.
class ScriptedPolicy final : public Policy {
public:
    explicit ScriptedPolicy(std::vector<Action> actions) : actions_(std::move(actions)) {}
    std::string_view name() const override { return "scripted"; }
    Decision decide(const ClusterState&, const Clock& clock) override
    {
        Decision d;
        d.time = clock.now();
        d.actions = actions_;
        return d;
    }

private:
    std::vector<Action> actions_;
};

class NoProvider final : public Provider {
public:
    std::string_view name() const override { return "none"; }
    std::vector<LaunchResult> launch(const std::vector<LaunchRequest>&) override { return {}; }
    ListResult list(const InstanceTags&) override { return {}; }
    std::map<std::string, ProviderError> terminate(const std::vector<std::string>&) override { return {}; }
};

class RecordingActuator final : public SlurmActuator {
public:
    ActuatorError set_job_partitions(JobId job, const std::vector<std::string>& parts, std::string_view) override
    {
        calls.push_back("route " + std::to_string(job) + " " + std::to_string(parts.size()));
        return {};
    }
    ActuatorError set_job_cpus(const JobCpuChange&, std::string_view) override { return {}; }
    ActuatorError power(const std::vector<std::string>& nodes, PowerAction action, std::string_view) override
    {
        for (const auto& n : nodes)
            calls.push_back(std::string(to_string(action)) + " " + n);
        return {};
    }
    ActuatorError set_node_address(const std::string&, const std::string&, const std::string&,
                                   std::string_view) override
    {
        return {};
    }
    ActuatorError hand_back_node(const std::string&, std::string_view, const std::vector<JobId>&,
                                 std::vector<JobId>&) override
    {
        return {};
    }
    ActuatorError drain(const std::vector<std::string>&, std::string_view) override { return {}; }
    ActuatorError undrain_own(const std::vector<std::string>&, std::string_view, std::vector<std::string>&) override
    {
        return {};
    }
    std::vector<std::string> calls;
};

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
        std::map<std::string, std::unique_ptr<Provider>> providers;
        providers["none"] = std::make_unique<NoProvider>();
        InstanceManagerSettings settings;
        settings.groups = config.node_groups;
        InstanceManager instances(std::move(providers), ledger, actuator, clock, log, settings);
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
    CHECK(f.actuator.calls == (std::vector<std::string>{"route 7 2", "POWER_UP c2", "POWER_UP c3"}));
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
    CHECK(f.actuator.calls == std::vector<std::string>{"route 7 2"});

    Fixture g;
    auto launched = g.run({route(7), Action{HireNodes{"cloud", 1}, "test"}});
    CHECK(launched.empty());
    // The hire powers up one node, not the route.
    CHECK(g.actuator.calls == (std::vector<std::string>{"route 7 2", "POWER_UP c2"}));
}

TEST(PolicyCycleRouteLaunch, NoLaunchWhenTooFewNodesAreFree)
{
    Fixture f;
    f.snapshot.jobs[0].cpus = 12; // three nodes, but c1 is busy
    CHECK(f.run({route(7)}).empty());
    CHECK(f.followed == std::vector<JobId>{7});
}

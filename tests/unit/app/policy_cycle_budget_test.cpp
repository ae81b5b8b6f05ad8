#include "app/policy_cycle.hpp"

#include "ingest/json_ref.hpp"

#include <cstdlib>
#include <sstream>

#include "app/policy_cycle_fakes.hpp"
#include "scratch_dir.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;
using namespace burst::test;

namespace {

Job pending(JobId id, const std::string& account, Seconds limit)
{
    Job j;
    j.id = id;
    j.account = account;
    j.cpus = 4;
    j.time_limit = limit;
    j.partitions = {"local"};
    return j;
}

Action route(JobId job) { return Action{RouteToCloud{job, "cloud"}, "the queue is long"}; }

} // namespace

TEST_GROUP(PolicyCycleBudget)
{
    test::ScratchDir scratch{"policy-cycle-budget-test"};
    std::ostringstream out;
    Logger log{out, LogLevel::Info, false};
    ManualClock clock{1000};
    RecordingActuator actuator;
    BurstdConfig config;
    Snapshot snapshot;
    std::string status;
    PolicyCycleStats stats;

    void setup() override
    {
        NodeGroup g;
        g.name = "cloud";
        g.provider = "none";
        g.partition = "cloud";
        g.cpus = 4;
        g.price_per_hour = 3.6; // 0.001 per second
        g.boot_time = 100;
        g.nodes = {"c1", "c2", "c3", "c4"};
        config.node_groups = {g};
        for (const auto& name : g.nodes) {
            Node n;
            n.name = name;
            n.cpus = 4;
            n.base = NodeBaseState::Idle;
            n.flags = kNodeCloud | kNodePoweredDown;
            n.partitions = {"cloud"};
            snapshot.nodes.push_back(n);
        }
        // Each costs up to (100 + 200) × 0.001 = 0.30 on one node.
        snapshot.jobs = {pending(1, "bio", 200), pending(2, "bio", 200), pending(3, "chem", 200)};
    }

    // One cycle of a chain of scripted policies, each given its actions.
    void cycle(std::vector<std::pair<std::string, std::vector<Action>>> policies, SlurmConfTimeouts timeouts = {})
    {
        Ledger ledger(scratch.file("ledger.sqlite"));
        std::map<std::string, std::unique_ptr<Provider>> providers;
        providers["none"] = std::make_unique<NoProvider>();
        InstanceManagerSettings settings;
        settings.groups = config.node_groups;
        InstanceManager instances(std::move(providers), ledger, actuator, clock, log, settings);
        std::vector<std::unique_ptr<Policy>> chain;
        for (auto& [name, actions] : policies)
            chain.push_back(std::make_unique<ScriptedPolicy>(std::move(actions), name));
        PolicyCycle pc(std::move(chain), ledger, actuator, instances, 1000);
        pc.set_slurm_timeouts(std::move(timeouts));
        pc.run(CycleContext{config, &snapshot, clock.now(), log});
        stats = pc.stats();
        JsonRef s(json_object());
        pc.report(s.get(), config.objective_lambda);
        char* text = json_dumps(s.get(), JSON_COMPACT);
        status = text;
        free(text);
    }
    bool logged(const std::string& text) const { return out.str().find(text) != std::string::npos; }
};

TEST(PolicyCycleBudget, WithoutBudgetLinesEveryPolicysActionsAreApplied)
{
    cycle({{"always", {route(1), route(2), route(3)}}});
    CHECK((actuator.calls == std::vector<std::string>{"job 1 local,cloud", "job 2 local,cloud", "job 3 local,cloud"}));
    CHECK(status.find("\"budgets\":[]") != std::string::npos);
}

TEST(PolicyCycleBudget, RoutesOverAnAccountsBudgetAreDroppedAcrossTheChainWithANoteInLogsAndStatus)
{
    config.budgets = {BudgetConfig{"bio", 0.50, 86400, "burstd.conf:9"}};
    // The first policy's route of job 1 counts when the second asks for job 2.
    cycle({{"always", {route(1)}}, {"forecast", {route(2), route(3)}}});
    CHECK((actuator.calls == std::vector<std::string>{"job 1 local,cloud", "job 3 local,cloud"}));
    const std::string note = "forecast: budget of account bio: 0.00 spent + 0.30 committed of 0.50 per day; job 2 "
                             "would need up to 0.30 on cloud, so it stays local";
    CHECK(logged("policy " + note));
    CHECK(status.find(note) != std::string::npos);
    CHECK(status.find("\"account\":\"bio\"") != std::string::npos);
    CHECK_EQUAL(1u, (stats.actions[{"route", "over_budget"}]));
    CHECK_EQUAL(2u, (stats.actions[{"route", "applied"}]));
}

TEST(PolicyCycleBudget, HiresAreCappedByTheStarBudgetUsingSlurmsSuspendTimeForTheGroupsPartition)
{
    config.budgets = {BudgetConfig{"*", 1.00, 3600, "burstd.conf:9"}};
    SlurmConfTimeouts timeouts;
    timeouts.suspend_time = 3600;                 // the global value
    timeouts.partition_suspend_time["cloud"] = 300; // what the cloud partition says
    // Each hired node: (100 + 300) × 0.001 = 0.40: two of three fit.
    cycle({{"boot-window", {Action{HireNodes{"cloud", 3}, "demand"}}}}, timeouts);
    CHECK((actuator.calls == std::vector<std::string>{"POWER_UP c1", "POWER_UP c2"}));
    CHECK(logged("allows 2 of 3"));
}

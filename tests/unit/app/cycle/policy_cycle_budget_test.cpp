#include "app/cycle/policy_cycle.hpp"

#include "common/json_ref.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <sstream>
#include <thread>

#include "app/cycle/policy_cycle_fakes.hpp"
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

// Lists c1's instance as running, so that a cycle's reconcile keeps its record open.
class ListsC1 final : public Provider {
public:
    std::string_view name() const override { return "none"; }
    std::vector<LaunchResult> launch(const std::vector<LaunchRequest>&) override { return {}; }
    ListResult list(const InstanceTags&) override
    {
        ProviderInstance c1;
        c1.provider_id = "i-c1";
        c1.node = "c1";
        c1.state = "running";
        c1.address = "10.0.0.1";
        return ListResult{{c1}, {}};
    }
    std::map<std::string, ProviderError> terminate(const std::vector<std::string>&) override { return {}; }
};

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
        InstanceManager instances =
            instances_for(config.node_groups, std::make_unique<NoProvider>(), ledger, actuator, clock, log);
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

    // c1 up since `launched`, idle at a first cycle and running job 4 of bio
    // on all its cores at a second one 100 s later, of one PolicyCycle.
    // Returns spend() and leaves the status as of the second.
    SpendView spend_over_two_cycles(Time launched)
    {
        Ledger ledger(scratch.file("ledger.sqlite"));
        LaunchIntent intent;
        intent.node = "c1";
        intent.node_group = "cloud";
        intent.provider = "none";
        const LedgerRecord c1 = ledger.record_launch_intent(intent, launched);
        ledger.mark_launched(c1.token, "i-c1", "10.0.0.1", launched);
        snapshot.nodes[0].flags = kNodeCloud;
        InstanceManager instances =
            instances_for(config.node_groups, std::make_unique<ListsC1>(), ledger, actuator, clock, log);
        std::vector<std::unique_ptr<Policy>> chain;
        PolicyCycle pc(std::move(chain), ledger, actuator, instances, 1000);
        pc.run(CycleContext{config, &snapshot, clock.now(), log});
        // The first cycle's reconcile; a hung one fails the test, not the suite.
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (instances.busy() > 0 && std::chrono::steady_clock::now() < give_up)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        LONGS_EQUAL(0, instances.busy());
        CHECK(ledger.find(c1.token)->open());
        clock.advance(100);
        snapshot.nodes[0].base = NodeBaseState::Allocated;
        Job running = pending(4, "bio", 3600);
        running.state = JobState::Running;
        running.partitions = {"cloud"};
        running.nodes = {"c1"};
        snapshot.jobs.push_back(running);
        pc.run(CycleContext{config, &snapshot, clock.now(), log});
        JsonRef s(json_object());
        pc.report(s.get(), config.objective_lambda);
        char* text = json_dumps(s.get(), JSON_COMPACT);
        status = text;
        free(text);
        return pc.spend();
    }
};

// The status's "budgets": account -> what the cap counted as spent.
std::map<std::string, double> cap_spent(const std::string& status)
{
    JsonRef s(json_loads(status.c_str(), 0, nullptr));
    std::map<std::string, double> spent;
    std::size_t i;
    json_t* b;
    json_array_foreach(json_object_get(s.get(), "budgets"), i, b)
        spent[json_string_value(json_object_get(b, "account"))] = json_real_value(json_object_get(b, "spent"));
    return spent;
}

// A number of the status's "spend" object.
double status_spend(const std::string& status, const char* key)
{
    JsonRef s(json_loads(status.c_str(), 0, nullptr));
    return json_number_value(json_object_get(json_object_get(s.get(), "spend"), key));
}

TEST(PolicyCycleBudget, WithoutBudgetLinesEveryPolicysActionsAreApplied)
{
    cycle({{"always", {route(1), route(2), route(3)}}});
    CHECK((actuator.calls == std::vector<std::string>{"job 1 local,cloud", "job 2 local,cloud", "job 3 local,cloud"}));
    CHECK(status.find("\"budgets\":[]") != std::string::npos);
}

TEST(PolicyCycleBudget, TheStatusListsEachGroupsNodesByStateAndNoOtherNode)
{
    snapshot.nodes[1].flags = kNodeCloud;
    Node local;
    local.name = "l1";
    local.cpus = 4;
    snapshot.nodes.push_back(local);
    cycle({});
    STRCMP_CONTAINS("\"cloud_nodes\":{\"cloud\":{\"idle\":\"c2\",\"powered_down\":\"c[1,3-4]\"}}", status.c_str());
}

TEST(PolicyCycleBudget, RoutesOverAnAccountsBudgetAreDroppedAcrossTheChainWithANoteInLogsAndStatus)
{
    config.budgets = {BudgetConfig{"bio", 0.50, 86400, "burstd.conf:9"}};
    // The first policy's route of job 1 counts when the second asks for job 2.
    cycle({{"always", {route(1)}}, {"forecast", {route(2), route(3)}}});
    CHECK((actuator.calls == std::vector<std::string>{"job 1 local,cloud", "job 3 local,cloud"}));
    // A node for the limit's 200 s and the longest boot, 150 s: slurm.conf's
    // ResumeTimeout (Slurm's default, 60 s here), a 30-s CycleInterval and
    // the terminate's minute.
    const std::string note = "forecast: budget of account bio: 0.00 spent + 0.35 committed of 0.50 per day; job 2 "
                             "would need up to 0.35 on cloud, so it stays local";
    CHECK(logged("policy " + note));
    CHECK(status.find(note) != std::string::npos);
    CHECK(status.find("\"account\":\"bio\"") != std::string::npos);
    CHECK_EQUAL(1u, (stats.actions[{"route", "over_budget"}]));
    CHECK_EQUAL(2u, (stats.actions[{"route", "applied"}]));
    // What users see: job 2's AdminComment says the budget held it.
    CHECK(std::find(actuator.whys.begin(), actuator.whys.end(), "job 2 why:budget") != actuator.whys.end());
}

TEST(PolicyCycleBudget, HiresAreCappedByTheStarBudgetUsingSlurmsSuspendTimeForTheGroupsPartition)
{
    config.budgets = {BudgetConfig{"*", 1.00, 3600, "burstd.conf:9"}};
    SlurmConfTimeouts timeouts;
    timeouts.suspend_time = 3600;                 // the global value
    timeouts.partition_suspend_time["cloud"] = 300; // what the cloud partition says
    // Each hired node: (150 s longest boot + 300) × 0.001 = 0.45: two of three fit.
    cycle({{"boot-window", {Action{HireNodes{"cloud", 3}, "demand"}}}}, timeouts);
    CHECK((actuator.calls == std::vector<std::string>{"POWER_UP c1", "POWER_UP c2"}));
    CHECK(logged("allows 2 of 3"));
}

TEST(PolicyCycleBudget, SpendIsReportedOverTheStatusIntervalFromTheTrackerTheCapCounts)
{
    config.budgets = {BudgetConfig{"*", 100, 3600, "burstd.conf:9"}};
    // c1 up since 500: 600 s × 0.001 by the second cycle at 1100, of which
    // bio's job is booked the 100 s between the cycles, the rest to "".
    const SpendView spend = spend_over_two_cycles(500);
    DOUBLES_EQUAL(3600, spend.interval, 0);
    DOUBLES_EQUAL(0, spend.interval_start, 0);
    DOUBLES_EQUAL(0.6, spend.total, 1e-9);
    DOUBLES_EQUAL(0.1, spend.accounts.at("bio"), 1e-9);
    const std::map<std::string, double> cap = cap_spent(status);
    CHECK_EQUAL(2u, cap.size());
    DOUBLES_EQUAL(0.1, cap.at("bio"), 1e-9);
    DOUBLES_EQUAL(0.5, cap.at(""), 1e-9);
    DOUBLES_EQUAL(spend.total, cap.at("bio") + cap.at(""), 1e-9);
    DOUBLES_EQUAL(3600, status_spend(status, "interval"), 0);
    DOUBLES_EQUAL(0.6, status_spend(status, "total"), 1e-9);
}

TEST(PolicyCycleBudget, SpendIsReportedOverTheShortestBudgetInterval)
{
    // A day for everyone, an hour for bio: spend is reported by the hour,
    // which began at 3600: only bio's 100 s of c1 (up since 3000) by 3700.
    config.budgets = {BudgetConfig{"*", 100, 86400, "burstd.conf:9"}, BudgetConfig{"bio", 100, 3600, "burstd.conf:10"}};
    clock.set(3600);
    const SpendView spend = spend_over_two_cycles(3000);
    DOUBLES_EQUAL(3600, spend.interval, 0);
    DOUBLES_EQUAL(3600, status_spend(status, "interval"), 0);
    DOUBLES_EQUAL(0.1, spend.total, 1e-9);
    DOUBLES_EQUAL(0.1, spend.accounts.at("bio"), 1e-9);
}

TEST(PolicyCycleBudget, SpendIsReportedOverAStatusIntervalNoBudgetLineUses)
{
    // Without Budget= lines, by the day: it began at 0, c1 up since 3000
    // has cost 700 s in it by 3700, bio's job the 100 s since 3600.
    config.budgets = {};
    clock.set(3600);
    const SpendView spend = spend_over_two_cycles(3000);
    DOUBLES_EQUAL(86400, spend.interval, 0);
    DOUBLES_EQUAL(0.7, spend.total, 1e-9);
    DOUBLES_EQUAL(0.7, status_spend(status, "total"), 1e-9);
    DOUBLES_EQUAL(0.1, spend.accounts.at("bio"), 1e-9);
    DOUBLES_EQUAL(0.6, spend.accounts.at(""), 1e-9);
    CHECK(cap_spent(status).empty());
}

TEST(PolicyCycleBudget, ARestartKeepsWhatEachAccountHasSpentInTheInterval)
{
    config.budgets = {BudgetConfig{"bio", 1, 3600, "burstd.conf:9"}};
    // bio's job ran on c1 from 1000 to 1100 (0.1 booked to bio); then
    // burstd stops.  It starts again at 1200, bio's job gone and chem's on
    // c1 since 1150.
    DOUBLES_EQUAL(0.1, spend_over_two_cycles(500).accounts.at("bio"), 1e-9);
    clock.advance(100);
    snapshot.jobs.pop_back();
    Job chem = pending(5, "chem", 3600);
    chem.state = JobState::Running;
    chem.partitions = {"cloud"};
    chem.nodes = {"c1"};
    chem.start_time = 1150;
    snapshot.jobs.push_back(chem);

    Ledger ledger(scratch.file("ledger.sqlite"));
    InstanceManager instances =
        instances_for(config.node_groups, std::make_unique<ListsC1>(), ledger, actuator, clock, log);
    PolicyCycle restarted({}, ledger, actuator, instances, 1000);
    restarted.run(CycleContext{config, &snapshot, clock.now(), log});
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (instances.busy() > 0 && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::map<std::string, double> spent = restarted.spend().accounts;
    DOUBLES_EQUAL(0.7, restarted.spend().total, 1e-9); // c1 since 500
    DOUBLES_EQUAL(0.1, spent["bio"], 1e-9);             // not free to spend again
    DOUBLES_EQUAL(0.05, spent["chem"], 1e-9);           // its 50 s since 1150
    CHECK(!logged("cannot"));
}

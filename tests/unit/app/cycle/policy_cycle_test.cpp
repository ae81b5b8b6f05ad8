#include "app/cycle/policy_cycle.hpp"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <unistd.h>

#include "app/cycle/policy_cycle_fakes.hpp"
#include "policy/runtime/measured_boot_times.hpp"
#include "scratch_dir.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;
using namespace burst::test;

namespace {

Job pending(JobId id, std::vector<std::string> partitions, std::uint32_t cpus = 2)
{
    Job j;
    j.id = id;
    j.cpus = cpus;
    j.partitions = std::move(partitions);
    return j;
}

} // namespace

TEST_GROUP(PolicyCycle)
{
    test::ScratchDir scratch{"policy-cycle-test"};
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
        g.recovery.capacity_errors = 1;
        config.node_groups = {g};
    }

    // One cycle over `snapshot` with the group's breaker opened first when `stopped`.
    PolicyCycleStats cycle(const Snapshot& snapshot, bool stopped)
    {
        Ledger ledger(path);
        InstanceManager instances =
            instances_for(config.node_groups, std::make_unique<NoProvider>(), ledger, actuator, clock, log);
        if (stopped)
            instances.health().launch_failed("cloud", {ProviderErrorKind::Capacity, "no capacity", 0}, clock.now(),
                                             false);
        PolicyCycle pc({}, ledger, actuator, instances, 1000);
        pc.run(CycleContext{config, &snapshot, clock.now(), log});
        return pc.stats();
    }
};

TEST(PolicyCycle, JobsRoutedToAGroupThatIsNotLaunchingGetTheirOtherPartitionsBack)
{
    Snapshot s;
    s.nodes = {cloud_node("c1", kNodePoweredDown), cloud_node("c2", kNodePoweredDown)};
    s.jobs = {pending(1, {"local", "cloud"}), pending(2, {"cloud"}), pending(3, {"local"})};
    cycle(s, true);
    CHECK(actuator.calls == (std::vector<std::string>{"drain c1", "drain c2", "job 1 local"}));
    CHECK(out.str().find("unroute job 1 from group cloud: node group cloud is not launching") != std::string::npos);
}

TEST(PolicyCycle, RoutedJobsStayWhileTheGroupHiresOrStillHasRoomUp)
{
    Snapshot s;
    s.nodes = {cloud_node("c1", 0), cloud_node("c2", kNodePoweredDown)};
    s.jobs = {pending(1, {"local", "cloud"})};
    cycle(s, false);
    CHECK(actuator.calls.empty());
    cycle(s, true); // c1 is up and idle: the job can still start there
    CHECK(actuator.calls == std::vector<std::string>{"drain c2"});
}

TEST(PolicyCycle, AStoppedGroupsPoweredDownNodesAreDrainedWithTheBreakerStateAsReason)
{
    Snapshot s;
    s.nodes = {cloud_node("c1", kNodePoweredDown), cloud_node("c2", kNodePoweringUp)};
    LONGS_EQUAL(1, cycle(s, true).fenced_nodes);
    CHECK(actuator.calls == std::vector<std::string>{"drain c1"}); // c2 is already on its way up
    STRCMP_EQUAL("burstd: node group cloud backing-off (capacity): capacity: no capacity",
                 actuator.reasons["c1"].c_str());
}

TEST(PolicyCycle, AfterARestartOnlyDrainsWithBurstdsReasonAreClearedOnceTheGroupLaunches)
{
    Snapshot s;
    s.nodes = {cloud_node("c1", kNodePoweredDown | kNodeDrain), cloud_node("c2", kNodePoweredDown | kNodeDrain)};
    actuator.reasons = {{"c1", "burstd: node group cloud protected (boot): boot: never registered"},
                        {"c2", "disk swap, ask Jo"}};
    cycle(s, true); // still stopped: both stay drained
    CHECK(actuator.calls.empty());
    std::filesystem::remove(path); // else the new burstd restores the open breaker
    cycle(s, false);               // a new burstd, the group healthy
    CHECK(actuator.calls == std::vector<std::string>{"undrain c1"});
    STRCMP_EQUAL("disk swap, ask Jo", actuator.reasons["c2"].c_str());
}

namespace {

// Keeps a copy of the state it decides on.
class StateSeen final : public Policy {
public:
    explicit StateSeen(ClusterState& seen) : seen_(seen) {}
    std::string_view name() const override { return "state-seen"; }
    Decision decide(const ClusterState& state, const Clock& clock) override
    {
        seen_ = state;
        Decision d;
        d.time = clock.now();
        return d;
    }

private:
    ClusterState& seen_;
};

// The state a policy sees in one cycle of a burstd started on the ledger.
ClusterState state_seen(const std::string& ledger_path, const BurstdConfig& config, const Snapshot& snapshot,
                        RecordingActuator& actuator, ManualClock& clock, Logger& log)
{
    ClusterState seen;
    Ledger ledger(ledger_path);
    InstanceManager instances =
        instances_for(config.node_groups, std::make_unique<NoProvider>(), ledger, actuator, clock, log);
    std::vector<std::unique_ptr<Policy>> chain;
    chain.push_back(std::make_unique<StateSeen>(seen));
    PolicyCycle pc(std::move(chain), ledger, actuator, instances, 1000);
    pc.run(CycleContext{config, &snapshot, clock.now(), log});
    return seen;
}

} // namespace

TEST(PolicyCycle, PoliciesSeeTheLedgersBootsOfClosedInstancesAfterARestart)
{
    {
        Ledger ledger(path);
        LedgerRecord closed = ledger.record_launch_intent(LaunchIntent{"c1", "cloud", "none", "t", false, ""}, 100);
        ledger.mark_launched(closed.token, "i-1", "", 101);
        ledger.mark_running(closed.token, 230);
        ledger.record_terminate_intent(closed.token, "idle", 400);
        ledger.mark_terminated(closed.token, 405);
        LedgerRecord open = ledger.record_launch_intent(LaunchIntent{"c2", "cloud", "none", "t", false, ""}, 500);
        ledger.mark_launched(open.token, "i-2", "", 501);
        ledger.mark_running(open.token, 560);
    } // burstd stops; the next one opens the same ledger
    Snapshot snapshot;
    snapshot.nodes = {cloud_node("c1", kNodePoweredDown), cloud_node("c2", 0, 2)};
    const ClusterState seen = state_seen(path, config, snapshot, actuator, clock, log);

    MeasuredBootTimes boots;
    boots.observe(seen);
    LONGS_EQUAL(2, seen.boots.size());
    DOUBLES_EQUAL(60, boots.latest(config.node_groups[0]), 0);
    DOUBLES_EQUAL(95, boots.expected(config.node_groups[0]), 0); // (130 + 60) / 2
}

// Billed per hour, at 10000: c1, launched at 7000 and terminated at 7300,
// is billed until 10600; c2's last instance ended at 6700, 3700 s after its
// launch, so its second hour runs until 10200; c2's first one ended in its
// second hour too, which was over at 8200.
TEST(PolicyCycle, PoliciesSeeTheLedgersInstancesEndedWithinTheirBilledPeriod)
{
    config.node_groups[0].billing = Billing::PerHour;
    clock.set(10000);
    {
        Ledger ledger(path);
        auto ended = [&](const std::string& node, Time launched, Time terminated) {
            LedgerRecord r = ledger.record_launch_intent(LaunchIntent{node, "cloud", "none", "t", false, ""}, launched);
            ledger.mark_launched(r.token, "i-" + std::to_string(std::int64_t(launched)), "", launched);
            ledger.record_terminate_intent(r.token, "idle", terminated);
            ledger.mark_terminated(r.token, terminated);
        };
        ended("c1", 7000, 7300);
        ended("c2", 1000, 4700);
        ended("c2", 3000, 6700);
    }
    Snapshot snapshot;
    snapshot.nodes = {cloud_node("c1", kNodePoweredDown), cloud_node("c2", kNodePoweredDown)};
    std::vector<BilledSpan> seen = state_seen(path, config, snapshot, actuator, clock, log).ended_but_billed;
    LONGS_EQUAL(2, seen.size());
    std::sort(seen.begin(), seen.end(), [](const BilledSpan& a, const BilledSpan& b) { return a.node < b.node; });
    STRCMP_EQUAL("c1", seen[0].node.c_str());
    STRCMP_EQUAL("c2", seen[1].node.c_str());
    DOUBLES_EQUAL(3000, seen[1].from, 0);
}

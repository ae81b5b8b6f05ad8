#include "sim/engine/cloud_fleet.hpp"
#include "sim/engine/event_queue.hpp"
#include "sim/engine/sim_site.hpp"
#include "sim/engine/sim_snapshot.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/sim_fixtures.hpp"

using namespace burst;
using namespace burst::test;

namespace {

// Three 2-core nodes booting in exactly 30 s, idle ones suspended after
// 100 s; room for the allocations of 4 jobs.
// `scavenger_run`: SimConfig's.
struct Fixture {
    explicit Fixture(std::uint32_t nodes = 3, Seconds scavenger_run = 0)
        : site(replay_site(config(nodes, scavenger_run))), snapshot(site, 4),
          fleet(site, 4, 0, clock, events, snapshot)
    {
    }
    static SimConfig config(std::uint32_t nodes, Seconds scavenger_run)
    {
        SimConfig c = local_site(2, 2, 60);
        c.suspend_time = 100;
        c.groups = {cloud_group("g", 2, 3.6, 30, nodes, 0)};
        c.scavenger_run = scavenger_run;
        return c;
    }
    // The events due by `until`, each at its time: (kind, node).
    std::vector<std::pair<EventKind, std::uint32_t>> events_until(Time until)
    {
        std::vector<std::pair<EventKind, std::uint32_t>> out;
        while (events.next_time() <= until) {
            const Event e = *events.pop_at(events.next_time());
            clock.set(e.time);
            out.emplace_back(e.kind, e.target);
            tokens.push_back(e.token);
        }
        return out;
    }
    const Node& view(std::uint32_t n) const { return snapshot.node(snapshot.local_nodes() + n); }

    SimConfig site;
    ManualClock clock;
    EventQueue events;
    SimSnapshot snapshot;
    CloudFleet fleet;
    std::vector<std::uint64_t> tokens;
};

using Alloc = CloudFleet::Allocation;
using Kinds = std::vector<std::pair<EventKind, std::uint32_t>>;

} // namespace

TEST_GROUP(CloudFleet){};

TEST(CloudFleet, CountsTheNodesNeverPoweredUpAndListsEachFromItsFirstPowerUp)
{
    Fixture f;
    const ClusterState& state = f.snapshot.state();
    LONGS_EQUAL(6, f.fleet.room(0));
    LONGS_EQUAL(f.snapshot.local_nodes(), state.snapshot.nodes.size());
    LONGS_EQUAL(3, state.groups[0].unlisted_nodes);
    LONGS_EQUAL(0, f.fleet.up_nodes());
    LONGS_EQUAL(0, f.fleet.hire(0, 2));
    STRCMP_EQUAL("g-2", f.fleet.name(1).c_str());
    CHECK(f.view(1).has(kNodeCloud) && f.view(1).has(kNodePoweringUp));
    CHECK((state.groups[0].nodes == std::vector<std::string>{"g-1", "g-2"}));
    LONGS_EQUAL(1, state.groups[0].unlisted_nodes);
    LONGS_EQUAL(3, state.groups[0].capacity());
}

TEST(CloudFleet, ANodePoweredDownAgainStaysListedAndIsResumedBeforeANewOne)
{
    Fixture f;
    f.fleet.hire(0, 1);
    f.events_until(30);
    f.fleet.node_ready(0);
    f.events_until(130);
    f.fleet.suspend_check(0, f.tokens.back(), true);
    CHECK(f.view(0).has(kNodePoweredDown));
    LONGS_EQUAL(1, f.snapshot.state().groups[0].nodes.size());
    CHECK(f.fleet.allocate(0, 0, 2));
    CHECK((f.fleet.allocation(0) == Alloc{{0, 2}}));
    LONGS_EQUAL(2, f.snapshot.state().groups[0].unlisted_nodes);
}

TEST(CloudFleet, AnUnlimitedGroupHiresFromAPoolWithoutEnd)
{
    SimConfig c = Fixture::config(0, 0);
    const SimConfig site = replay_site(c);
    ManualClock clock;
    EventQueue events;
    SimSnapshot snapshot(site, 1);
    CloudFleet fleet(site, 1, 0, clock, events, snapshot);
    LONGS_EQUAL(NodeGroup::kUnlimited, snapshot.state().groups[0].capacity());
    CHECK(fleet.room(0) >= std::uint64_t(NodeGroup::kUnlimited) * 2);
    LONGS_EQUAL(0, fleet.hire(0, 1000));
    CHECK(fleet.allocate(0, 0, 2002)); // the 1000 booting nodes and one more
    LONGS_EQUAL(1001, fleet.up_nodes());
    STRCMP_EQUAL("g-1001", fleet.name(1000).c_str());
    LONGS_EQUAL(NodeGroup::kUnlimited, snapshot.state().groups[0].unlisted_nodes);
}

TEST(CloudFleet, RefusesANamedNodeThatAnotherGroupNamesItself)
{
    SimConfig c = Fixture::config(3, 0);
    NodeGroup named = cloud_group("h", 2, 1, 30, 0, 0);
    named.nodes = {"h-1", "g-3"};
    c.groups.push_back(named);
    const SimConfig site = replay_site(c);
    ManualClock clock;
    EventQueue events;
    SimSnapshot snapshot(site, 1);
    CHECK_THROWS(SimConfigError, CloudFleet(site, 1, 0, clock, events, snapshot));
    c.groups[1].nodes = {"h-1", "g-4"}; // beyond g's three
    const SimConfig apart = replay_site(c);
    SimSnapshot other(apart, 1);
    CloudFleet fleet(apart, 1, 0, clock, events, other);
    LONGS_EQUAL(0, fleet.hire(1, 2));
    STRCMP_EQUAL("g-4", fleet.name(1).c_str());
}

// Like Slurm: cores of nodes already up first, then of booting ones, then
// more nodes are resumed.
TEST(CloudFleet, AllocatesUpNodesFirstThenBootingOnesThenResumesMore)
{
    Fixture f;
    CHECK(f.fleet.allocate(0, 0, 1));
    CHECK((f.fleet.allocation(0) == Alloc{{0, 1}}));
    CHECK(f.fleet.allocate(1, 0, 3));
    CHECK((f.fleet.allocation(1) == Alloc{{0, 1}, {1, 2}}));
    LONGS_EQUAL(2, f.fleet.booting_nodes(1));
    LONGS_EQUAL(2, f.fleet.up_nodes());
    CHECK(f.view(0).has(kNodePoweringUp));
    LONGS_EQUAL(2, f.view(0).alloc_cpus);
    CHECK(!f.fleet.allocate(2, 0, 4)); // 2 cores left
    CHECK((f.events_until(30) == Kinds{{EventKind::NodeReady, 0}, {EventKind::NodeReady, 1}}));
    CHECK((f.fleet.node_ready(0) == std::vector<std::uint32_t>{0})); // job 1 waits for node 1 too
    CHECK((f.fleet.node_ready(1) == std::vector<std::uint32_t>{1}));
    CHECK(f.fleet.allocate(2, 0, 2));
    CHECK((f.fleet.allocation(2) == Alloc{{2, 2}})); // nodes 0 and 1 are full
}

TEST(CloudFleet, AHireBeyondThePoweredDownNodesFallsShort)
{
    Fixture f;
    LONGS_EQUAL(0, f.fleet.hire(0, 2));
    LONGS_EQUAL(1, f.fleet.hire(0, 2));
    LONGS_EQUAL(3, f.fleet.up_nodes());
    LONGS_EQUAL(6, f.fleet.up_cores());
}

TEST(CloudFleet, AnIdleNodePowersDownAfterSuspendTimeAndIsBilledItsUptime)
{
    Fixture f(1);
    f.fleet.hire(0, 1);
    f.events_until(30);
    CHECK(f.fleet.booting(0, f.tokens.back()));
    CHECK(f.fleet.node_ready(0).empty());
    CHECK(f.fleet.take_changes());
    CHECK(!f.fleet.take_changes());
    CHECK((f.events_until(130) == Kinds{{EventKind::SuspendCheck, 0}}));
    f.fleet.suspend_check(0, f.tokens.back(), true);
    LONGS_EQUAL(0, f.fleet.up_nodes());
    CHECK(f.view(0).has(kNodePoweredDown));
    SimResult r;
    f.fleet.report(r, 130);
    LONGS_EQUAL(1, r.instances_launched);
    DOUBLES_EQUAL(0.13, r.cloud_cost, 1e-9); // 130 s at 3.6 per hour
    DOUBLES_EQUAL(200, r.idle_before_down_core_seconds, 1e-9);
    LONGS_EQUAL(1, r.instances.size());
    DOUBLES_EQUAL(30, r.instances[0].ready, 0);
}

TEST(CloudFleet, PlaceholdersKeepIdleNodesUpWhileTheWorkloadLasts)
{
    Fixture f(1);
    f.fleet.keep_warm(0, 1);
    LONGS_EQUAL(1, f.fleet.up_nodes());
    f.events_until(30);
    f.fleet.node_ready(0);
    f.events_until(130);
    f.fleet.suspend_check(0, f.tokens.back(), true);
    LONGS_EQUAL(1, f.fleet.up_nodes());
    CHECK((f.events_until(230) == Kinds{{EventKind::SuspendCheck, 0}})); // checked again a SuspendTime on
    f.fleet.suspend_check(0, f.tokens.back(), false); // the last job has ended
    LONGS_EQUAL(0, f.fleet.up_nodes());
}

TEST(CloudFleet, ScavengerWorkRunsOnTheNodesTheWarmPoolHoldsUntilRealWorkTakesOne)
{
    Fixture f(2, 60);
    CloudFleet& fleet = f.fleet;
    ManualClock& clock = f.clock;
    fleet.keep_warm(0, 1);
    clock.set(30);
    fleet.node_ready(0); // idle and held: scavenger work from now on
    clock.set(200);
    CHECK(fleet.allocate(0, 0, 2)); // a real job takes the node
    clock.set(260);
    SimResult r;
    fleet.report(r, 260);
    // 170 s held: the first run from 90 s (a cycle on) to 150, the next
    // from 270 (two cycles on) would have been.
    DOUBLES_EQUAL(2 * 170, r.warm_held_core_seconds, 1e-9);
    DOUBLES_EQUAL(2 * 60, r.scavenger_done_core_seconds, 1e-9);
    DOUBLES_EQUAL(0, r.scavenger_lost_core_seconds, 1e-9);
    // Idle beyond what the pool keeps: no scavenger work there.
    CHECK(fleet.allocate(1, 0, 2)); // resumes the second node
    clock.set(230);
    LONGS_EQUAL(1, fleet.node_ready(1).size());
    clock.set(300);
    fleet.release(0);
    clock.set(400);
    fleet.release(1);
    clock.set(500);
    SimResult later;
    fleet.report(later, 500);
    DOUBLES_EQUAL(2 * 170, later.warm_held_core_seconds, 1e-9);
    DOUBLES_EQUAL(2 * 60, later.scavenger_done_core_seconds, 1e-9);
}

TEST(CloudFleet, AForecastDropRequeuesTheScavengerWorkOnTheNodesLetGo)
{
    Fixture f(1, 60);
    CloudFleet& fleet = f.fleet;
    ManualClock& clock = f.clock;
    fleet.keep_warm(0, 1);
    clock.set(30);
    fleet.node_ready(0);
    clock.set(100);
    fleet.keep_warm(0, 1); // no change: the run started at 90 goes on
    clock.set(130);
    fleet.keep_warm(0, 0);
    clock.set(200);
    SimResult r;
    fleet.report(r, 200);
    DOUBLES_EQUAL(2 * 100, r.warm_held_core_seconds, 1e-9); // until the pool let it go
    DOUBLES_EQUAL(0, r.scavenger_done_core_seconds, 1e-9);
    DOUBLES_EQUAL(2 * 40, r.scavenger_lost_core_seconds, 1e-9);
}

TEST(CloudFleet, WithoutScavengerWorkWarmNodesOnlyIdle)
{
    Fixture f(1);
    f.fleet.keep_warm(0, 1);
    f.clock.set(30);
    f.fleet.node_ready(0);
    f.clock.set(200);
    CHECK(f.fleet.allocate(0, 0, 2));
    SimResult r;
    f.fleet.report(r, 200);
    DOUBLES_EQUAL(0, r.scavenger_done_core_seconds, 0);
    DOUBLES_EQUAL(0, r.scavenger_lost_core_seconds, 0);
    DOUBLES_EQUAL(2 * 170, r.idle_core_seconds, 1e-9);
}

TEST(CloudFleet, ADrainedNodeTakesNoWorkAndPowersDownOnceIdle)
{
    Fixture f(1);
    CHECK(!f.fleet.drain("g-1")); // powered down
    CHECK(!f.fleet.drain("nope"));
    CHECK(f.fleet.allocate(0, 0, 1));
    f.events_until(30);
    CHECK((f.fleet.node_ready(0) == std::vector<std::uint32_t>{0}));
    CHECK(f.fleet.drain("g-1"));
    CHECK(f.view(0).has(kNodeDrain));
    LONGS_EQUAL(0, f.fleet.room(0));
    f.fleet.release(0);
    LONGS_EQUAL(0, f.fleet.up_nodes());
}

TEST(CloudFleet, AJobReleasedFromABootingNodeNoLongerWaitsForIt)
{
    Fixture f;
    CHECK(f.fleet.allocate(0, 0, 2));
    CHECK(f.fleet.holds(0, 0));
    CHECK((f.fleet.configuring(0) == std::vector<std::uint32_t>{0}));
    f.fleet.release(0);
    CHECK(!f.fleet.holds(0, 0));
    CHECK(f.fleet.configuring(0).empty());
    LONGS_EQUAL(0, f.fleet.booting_nodes(0));
    f.events_until(30);
    CHECK(f.fleet.node_ready(0).empty());
}

TEST(CloudFleet, ChargesJobsAtThePerCorePriceAndShowsItsInstancesAndBoots)
{
    Fixture f(2);
    f.fleet.hire(0, 1);
    f.events_until(30);
    f.fleet.node_ready(0);
    DOUBLES_EQUAL(0.02, f.fleet.charge(0, 40), 1e-12); // 3.6 per hour for 2 cores
    ClusterState& state = f.snapshot.begin_cycle(100, 0, f.site.groups);
    f.fleet.show();
    LONGS_EQUAL(1, state.instances.size());
    STRCMP_EQUAL("g-1", state.instances[0].node.c_str());
    CHECK(InstanceState::Running == state.instances[0].state);
    LONGS_EQUAL(1, state.boots.size());
    // Shown again each cycle, with what changed since.
    f.snapshot.begin_cycle(160, 0, f.site.groups);
    f.fleet.show();
    LONGS_EQUAL(1, state.instances.size());
    LONGS_EQUAL(1, state.boots.size());
    f.fleet.hire(0, 1);
    f.snapshot.begin_cycle(220, 0, f.site.groups);
    f.fleet.show();
    LONGS_EQUAL(2, state.instances.size());
    CHECK(InstanceState::Launching == state.instances[1].state);
    LONGS_EQUAL(1, state.boots.size());
    f.events_until(300);
    f.fleet.node_ready(1);
    f.fleet.take_back(0); // powered down
    f.snapshot.begin_cycle(400, 0, f.site.groups);
    f.fleet.show();
    LONGS_EQUAL(1, state.instances.size());
    STRCMP_EQUAL("g-2", state.instances[0].node.c_str());
    LONGS_EQUAL(2, state.boots.size());
}

// Every link of a decision's chain sees the instances the cycle began with,
// as burstd's ledger shows them: what the decision hires or powers down is
// shown once it is over.
TEST(CloudFleet, ShowsWhatADecisionPowersUpOrDownOnceItIsOver)
{
    Fixture f(2);
    f.fleet.hire(0, 1);
    f.events_until(30);
    f.fleet.node_ready(0);
    ClusterState& state = f.snapshot.begin_cycle(100, 0, f.site.groups);
    f.fleet.show();
    LONGS_EQUAL(1, state.instances.size());
    f.fleet.begin_decision();
    LONGS_EQUAL(0, f.fleet.hire(0, 1)); // none short
    f.fleet.take_back(0);
    LONGS_EQUAL(1, state.instances.size());
    STRCMP_EQUAL("g-1", state.instances[0].node.c_str());
    f.fleet.end_decision();
    LONGS_EQUAL(1, state.instances.size());
    STRCMP_EQUAL("g-2", state.instances[0].node.c_str());
    CHECK(InstanceState::Launching == state.instances[0].state);
}

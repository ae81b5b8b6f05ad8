#include "sim/engine/sim_site.hpp"
#include "sim/engine/sim_snapshot.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "sim/sim_fixtures.hpp"

using namespace burst;
using namespace burst::test;

namespace {

// 5 local cores as nodes of 2 and a group of two 4-core nodes.
SimConfig site()
{
    SimConfig c = local_site(5, 2, 60);
    c.groups = {cloud_group("g", 4, 1, 30, 2, 0)};
    return replay_site(c);
}

} // namespace

TEST_GROUP(SimSnapshot){};

TEST(SimSnapshot, ShowsTheLocalPoolAsNodesThenTheCloudNodesAsTheyAreListed)
{
    const SimConfig s = site();
    SimSnapshot snap(s, 0);
    const Snapshot& view = snap.state().snapshot;
    const NodeGroup& group = snap.state().groups.at(0);
    LONGS_EQUAL(3, snap.local_nodes());
    LONGS_EQUAL(3, view.nodes.size());
    LONGS_EQUAL(1, view.nodes[2].cpus); // what is left of the 5 cores
    LONGS_EQUAL(2, view.partitions.size());
    CHECK(view.partitions[0].is_default);
    LONGS_EQUAL(2, group.unlisted_nodes);
    const std::uint64_t layout = snap.state().node_layout;
    CHECK(layout != 0); // vouched for: policies' node indexes need not compare names
    snap.begin_cycle(60, 0, s.groups);
    CHECK_EQUAL(layout, snap.state().node_layout);
    LONGS_EQUAL(3, snap.list_cloud_node(0, "g-1"));
    CHECK(snap.state().node_layout != layout); // a node more: a new layout
    CHECK(SimSnapshot(s, 0).state().node_layout != snap.state().node_layout); // another replay's
    STRCMP_EQUAL("g-1", view.nodes[3].name.c_str());
    LONGS_EQUAL(4, view.nodes[3].cpus);
    CHECK((view.partitions[1].nodes == std::vector<std::string>{"g-1"}));
    CHECK((group.nodes == std::vector<std::string>{"g-1"}));
    LONGS_EQUAL(1, group.unlisted_nodes);
    LONGS_EQUAL(2, group.capacity());
}

TEST(SimSnapshot, ARemovedJobsViewGoesAndTheOthersStayFound)
{
    const SimConfig s = site();
    const std::vector<TraceJob> trace = {trace_job(1, 0, 1, 10), trace_job(2, 0, 2, 10), trace_job(3, 0, 3, 10)};
    SimSnapshot snap(s, 3);
    for (std::uint32_t j = 0; j < 3; ++j)
        snap.add(j, trace[j], trace[j].cpus, 1, 100 - j);
    snap.remove(0);
    LONGS_EQUAL(2, snap.state().snapshot.jobs.size());
    LONGS_EQUAL(2, snap.job(1).id);
    LONGS_EQUAL(3, snap.job(2).id);
    CHECK((snap.shown() == std::vector<std::uint32_t>{2, 1}));
    LONGS_EQUAL(98, snap.job(2).priority);
}

TEST(SimSnapshot, ShowsAJobsLifeAsSlurmDoes)
{
    const SimConfig s = site();
    const TraceJob t = trace_job(7, 0, 4, 10);
    SimSnapshot snap(s, 1);
    snap.add(0, t, 4, 1, 1);
    snap.blocked(0, "afterany:6");
    CHECK(snap.job(0).reason.is_dependency());
    STRCMP_EQUAL("afterany:6", snap.job(0).dependency.c_str());
    snap.eligible(0, 5);
    CHECK(snap.job(0).dependency.empty());
    DOUBLES_EQUAL(5, snap.job(0).eligible_time, 0);
    snap.routed(0, 0);
    LONGS_EQUAL(2, snap.job(0).partitions.names().size());
    snap.allocated(0, 0, {"g-1"});
    snap.configuring(0, 6);
    CHECK(snap.job(0).state == JobState::Running);
    LONGS_EQUAL(1, snap.job(0).node_count);
    snap.requeued(0, 0);
    CHECK(snap.job(0).state == JobState::Pending);
    LONGS_EQUAL(0, snap.job(0).node_count);
    LONGS_EQUAL(2, snap.job(0).partitions.names().size());
}

TEST(SimSnapshot, EachCycleFillsTheLocalNodesNodeByNode)
{
    const SimConfig s = site();
    SimSnapshot snap(s, 0);
    ClusterState& state = snap.begin_cycle(60, 3, s.groups);
    DOUBLES_EQUAL(60, state.snapshot.time, 0);
    LONGS_EQUAL(1, state.snapshot.seq);
    LONGS_EQUAL(2, state.snapshot.nodes[0].alloc_cpus);
    CHECK(state.snapshot.nodes[0].base == NodeBaseState::Allocated);
    LONGS_EQUAL(1, state.snapshot.nodes[1].alloc_cpus);
    CHECK(state.snapshot.nodes[1].base == NodeBaseState::Mixed);
    CHECK(state.snapshot.nodes[2].base == NodeBaseState::Idle);
}

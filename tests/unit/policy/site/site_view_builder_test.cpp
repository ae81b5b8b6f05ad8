#include "policy/site/site_view_builder.hpp"

#include "policy/policy_test_state.hpp"

#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::StateBuilder;

namespace {

// A site with something in every part of a view: gres and features that
// differ between nodes, nodes idle, up, booting and down, routed, unservable
// and unordered waiting jobs, running ones local and in the cloud.
StateBuilder busy_site()
{
    StateBuilder b;
    b.local("n1", 16, 4).local("n2", 16, 16).group("gpu", 8, 4, 3.0).group("cpu", 4, 3, 0.5);
    b.state.groups[0].gres = "gpu:a100:2";
    b.node("gpu-1").features = {"ib", "a100"};
    b.node("gpu-2").features = {"a100"};
    b.node("gpu-3").features = {"a100", "nvme"};
    b.node("gpu-4").features = {"a100"};
    b.up("gpu-1").up("gpu-2", 8).up("cpu-1");
    b.node("cpu-2").flags = kNodeCloud | kNodePoweringUp;
    b.pending(1, 2).pending(2, 8, BurstOption::Prefer).pending(3, 4, BurstOption::Never).pending(4, 1);
    b.state.snapshot.jobs[0].needs = NodeNeeds("gres:gpu:1", "a100");
    b.state.snapshot.jobs[1].partitions = {"local", "cpu"};
    b.state.snapshot.jobs[2].priority = 5000;
    b.state.snapshot.jobs[3].needs = NodeNeeds("gres:gpu:4", ""); // no node has four
    b.running(5, 8, 0);
    b.running(6, 8, 0);
    b.state.snapshot.jobs.back().partitions = {"gpu"};
    b.state.snapshot.jobs.back().nodes = {"gpu-2"};
    b.state.hire_limits["gpu"] = 1;
    return b;
}

// A smaller site of other names and shapes, whose partition has a MaxTime.
StateBuilder small_site()
{
    StateBuilder b;
    b.local("m1", 4, 0).group("spot", 2, 2, 0.1);
    Partition spot;
    spot.name = "spot";
    spot.max_time = 3600;
    b.state.snapshot.partitions.push_back(spot);
    b.up("spot-2");
    b.pending(7, 3);
    b.pending(9, 1, BurstOption::Allow, "c", 7200); // beyond the MaxTime
    b.state.snapshot.jobs.back().needs = NodeNeeds("", "nvme");
    b.running(8, 2, 0);
    return b;
}

void check_same(const SiteView& fresh, const SiteView& reused)
{
    LONGS_EQUAL(fresh.local_cpus, reused.local_cpus);
    LONGS_EQUAL(fresh.local_free_cpus, reused.local_free_cpus);
    LONGS_EQUAL(fresh.local_alloc_cpus, reused.local_alloc_cpus);
    CHECK(fresh.pending == reused.pending);
    CHECK(fresh.pending_group == reused.pending_group);
    CHECK(fresh.pending_cpus == reused.pending_cpus);
    CHECK(fresh.pending_since == reused.pending_since);
    CHECK(fresh.pending_burst == reused.pending_burst);
    CHECK(fresh.pending_needs == reused.pending_needs);
    CHECK(fresh.pending_time_limit == reused.pending_time_limit);
    LONGS_EQUAL(fresh.unservable_jobs, reused.unservable_jobs);
    CHECK(fresh.first_unservable == reused.first_unservable);
    LONGS_EQUAL(fresh.unchecked_jobs, reused.unchecked_jobs);
    LONGS_EQUAL(fresh.too_long_jobs, reused.too_long_jobs);
    CHECK(fresh.running == reused.running);
    CHECK(fresh.running_group == reused.running_group);
    CHECK(fresh.node_group == reused.node_group);
    CHECK(fresh.needs_notes() == reused.needs_notes());
    LONGS_EQUAL(fresh.groups.size(), reused.groups.size());
    for (std::size_t g = 0; g < fresh.groups.size(); ++g) {
        const GroupView& a = fresh.groups[g];
        const GroupView& b = reused.groups[g];
        CHECK(a.group == b.group);
        LONGS_EQUAL(a.index, b.index);
        CHECK(a.offer.features == b.offer.features);
        CHECK(a.offer.gres == b.offer.gres);
        LONGS_EQUAL(a.offer.cpus, b.offer.cpus);
        LONGS_EQUAL(a.offer.memory_mb, b.offer.memory_mb);
        DOUBLES_EQUAL(a.max_time, b.max_time, 0);
        LONGS_EQUAL(a.up_nodes, b.up_nodes);
        LONGS_EQUAL(a.booting_nodes, b.booting_nodes);
        LONGS_EQUAL(a.hireable_nodes, b.hireable_nodes);
        LONGS_EQUAL(a.alloc_cpus, b.alloc_cpus);
        LONGS_EQUAL(a.up_alloc_cpus, b.up_alloc_cpus);
        LONGS_EQUAL(a.free_up_cpus, b.free_up_cpus);
        LONGS_EQUAL(a.free_booting_cpus, b.free_booting_cpus);
        LONGS_EQUAL(a.routed_pending_cpus, b.routed_pending_cpus);
        CHECK(a.idle_nodes == b.idle_nodes);
        for (const NodeNeeds needs : fresh.pending_needs)
            CHECK_EQUAL(fresh.serves(needs, a), reused.serves(needs, b));
        for (std::size_t i = 0; i < fresh.pending.size(); ++i)
            CHECK_EQUAL(fresh.serves(i, a), reused.serves(i, b));
    }
    for (const NodeNeeds needs : fresh.pending_needs)
        CHECK_EQUAL(fresh.served_somewhere(needs), reused.served_somewhere(needs));
}

} // namespace

TEST_GROUP(SiteViewBuilder){};

// A builder keeps the storage of its last view: nothing of that view may
// show through in the next, whichever site each was of, and whatever the
// policy changed in it.
TEST(SiteViewBuilder, EachBuildIsTheViewAFreshOneWouldBuild)
{
    const StateBuilder busy = busy_site();
    const StateBuilder small = small_site();
    const StateBuilder empty;
    SiteViewBuilder builder;
    for (const ClusterState* state : {&busy.state, &small.state, &busy.state, &empty.state, &busy.state}) {
        SiteView& view = builder.build(*state);
        check_same(SiteView::of(*state), view);
        // What policies do to their view between builds.
        for (auto& g : view.groups) {
            g.routed_pending_cpus += 100;
            g.hireable_nodes = 0;
            g.idle_nodes.push_back("gone");
        }
        for (auto& group : view.pending_group)
            group = 0;
    }
}

TEST(SiteViewBuilder, TheBusySiteIsSeenWhole)
{
    const StateBuilder b = busy_site();
    SiteViewBuilder builder;
    const SiteView& v = builder.build(b.state);
    LONGS_EQUAL(4, v.pending.size());
    LONGS_EQUAL(3, v.pending[0]->id); // priority 5000 first
    LONGS_EQUAL(1, v.unservable_jobs);
    LONGS_EQUAL(1, v.groups[0].hireable_nodes); // the hire limit
    LONGS_EQUAL(2, v.groups[0].up_nodes);
    LONGS_EQUAL(1, v.groups[1].booting_nodes);
    CHECK((std::vector<std::string>{"a100"}) == v.groups[0].offer.features);
}

TEST(SiteViewBuilder, GivesBackWhatALongQueueOnceNeeded)
{
    StateBuilder longq;
    longq.local("n1", 4, 4);
    for (JobId id = 1; id <= 20000; ++id)
        longq.pending(id, 1);
    SiteViewBuilder builder;
    LONGS_EQUAL(20000, builder.build(longq.state).pending.size());
    const StateBuilder small = small_site();
    const SiteView& view = builder.build(small.state);
    check_same(SiteView::of(small.state), view);
    CHECK(view.pending.capacity() < 20000);
}

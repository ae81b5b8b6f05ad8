#include "policy/cycle/decision_cycle.hpp"
#include "policy/warm/buckets/bucket_series.hpp"
#include "policy/warm/buckets/cloud_demand_buckets.hpp"

#include "policy/policy_test_state.hpp"

#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::StateBuilder;

namespace {

// Two groups, 8 and 32 cores, a local node; nothing waits or runs.
StateBuilder two_groups()
{
    StateBuilder b;
    b.local("n1", 32, 32).group("small", 8, 10, 0.4, 100).group("big", 32, 10, 1.6, 200);
    return b;
}

// A job running on the group's first node.
void running_in(StateBuilder& b, JobId id, std::uint32_t cpus, const std::string& group)
{
    b.running(id, cpus, 0);
    Job& job = b.state.snapshot.jobs.back();
    job.partitions = {group};
    job.nodes = {group + "-1"};
    b.up(group + "-1", cpus);
}

std::vector<std::uint32_t> counts_of(const ClusterState& state, const ResourceOrder& order = ResourceOrder())
{
    return cloud_demand_buckets(SiteView::of(state), order);
}

class NoSink final : public ActionSink {
public:
    std::string apply(const Action&, ClusterState&) override { return ""; }
};

} // namespace

TEST_GROUP(CloudDemandBuckets){};

TEST(CloudDemandBuckets, CountsWorkInTheCloudAndWorkThatMayBurstInNodesOfEachGroup)
{
    StateBuilder b = two_groups();
    b.pending(1, 4);
    b.state.snapshot.jobs.back().array_task_count = 3; // 12 cores
    b.pending(2, 20);                                   // too wide for a small node
    b.pending(3, 64, BurstOption::Never);               // stays local
    b.pending(4, 8);
    b.state.snapshot.jobs.back().reason = PendingReason("Dependency"); // nobody's demand yet
    running_in(b, 5, 8, "small");
    b.running(6, 16, 0); // local
    const std::vector<std::uint32_t> counts = counts_of(b.state);
    LONGS_EQUAL(2, counts.size());
    LONGS_EQUAL(3, counts[0]); // (12 + 8) / 8 = 2.5
    LONGS_EQUAL(1, counts[1]); // 20 / 32
}

TEST(CloudDemandBuckets, GpuWorkGoesToTheGroupWithGpus)
{
    StateBuilder b = two_groups();
    b.state.groups[1].gres = "gpu:2";
    b.pending(1, 4);
    b.state.snapshot.jobs.back().needs = NodeNeeds("gres:gpu:1", "", 4);
    b.state.snapshot.jobs.back().node_count = 3; // 3 GPUs: 2 nodes of 2
    b.pending(2, 4);
    const std::vector<std::uint32_t> counts = counts_of(b.state);
    LONGS_EQUAL(1, counts[0]);
    LONGS_EQUAL(2, counts[1]);
}

TEST(CloudDemandBuckets, MemoryOfOneMegabyteIsSlurmsDefaultNotAStatement)
{
    // Slurm lists the small group's nodes with RealMemory's default, 1 MB:
    // a job asking 2 GB still fits them.  The big group's nodes list 64 GB.
    StateBuilder b = two_groups();
    for (auto& n : b.state.snapshot.nodes)
        n.memory_mb = n.name.rfind("small-", 0) == 0 ? 1 : 64 * 1024;
    b.pending(1, 4);
    b.state.snapshot.jobs.back().memory_mb = 2048;
    const std::vector<std::uint32_t> counts = counts_of(b.state);
    LONGS_EQUAL(1, counts[0]);
    LONGS_EQUAL(0, counts[1]);
}

TEST(CloudDemandBuckets, NeverCountsMoreNodesThanTheGroupHas)
{
    StateBuilder b = two_groups(); // 10 nodes each
    for (JobId id = 1; id <= 25; ++id)
        b.pending(id, 8);
    LONGS_EQUAL(10, counts_of(b.state)[0]);
}

TEST(CloudDemandBuckets, TheBucketOrderDecidesWhereWorkGoes)
{
    // A 16-core job asking no GPU; a group of 8-core nodes and one of
    // 4-core nodes with a GPU.  GPUs first, the job is smaller than a GPU
    // node and fills 4 of them; CPUs first, it is larger than both nodes
    // and goes to the largest, 2 of the 8-core ones.
    StateBuilder b;
    b.local("n1", 32, 32).group("cpu", 8, 10, 0.4, 100).group("gpu", 4, 10, 2.0, 100);
    b.state.groups[1].gres = "gpu:1";
    b.pending(1, 16);
    const std::vector<std::uint32_t> gpus_first = counts_of(b.state, ResourceOrder::parse("gpus,cpus,memory"));
    LONGS_EQUAL(0, gpus_first[0]);
    LONGS_EQUAL(4, gpus_first[1]);
    const std::vector<std::uint32_t> cpus_first = counts_of(b.state, ResourceOrder::parse("cpus,gpus,memory"));
    LONGS_EQUAL(2, cpus_first[0]);
    LONGS_EQUAL(0, cpus_first[1]);
}

TEST(CloudDemandBuckets, SeriesKeepsEachTicksLargestCountAndTheMeasuredBootTime)
{
    StateBuilder b = two_groups();
    BucketSeries series(ResourceOrder(), 300);
    series.observe(b.state, SiteView::of(b.state), 600); // tick 2: nothing
    b.pending(1, 8).pending(2, 8);
    series.observe(b.state, SiteView::of(b.state), 660); // still tick 2: 2 small nodes
    b.state.snapshot.jobs.clear();
    b.booted_once("small", 150);
    series.observe(b.state, SiteView::of(b.state), 1560); // tick 5: nothing again; ticks 3 and 4 unseen
    LONGS_EQUAL(2, series.groups().size());
    const GroupBucketSeries& small = series.groups()[0];
    STRCMP_EQUAL("small", small.group.c_str());
    LONGS_EQUAL(2, small.first_tick);
    const std::vector<double> counts{2, 2, 2, 0};
    CHECK_TRUE(small.counts == counts);
    const std::vector<Seconds> lead{100, 100, 100, 150};
    CHECK_TRUE(small.lead == lead);
    DOUBLES_EQUAL(200, series.groups()[1].lead.back(), 0);
}

TEST(CloudDemandBuckets, DecisionCycleCountsTheStateAsItFindsIt)
{
    StateBuilder b = two_groups();
    b.pending(1, 8).pending(2, 8).pending(3, 8);
    DecisionCycle cycle{PolicyChain{}};
    POINTERS_EQUAL(nullptr, cycle.buckets());
    cycle.count_buckets(BucketSeries(ResourceOrder(), 60));
    NoSink sink;
    cycle.run(b.state, ManualClock(120), nullptr, sink);
    const GroupBucketSeries& small = cycle.buckets()->groups()[0];
    LONGS_EQUAL(2, small.first_tick);
    DOUBLES_EQUAL(3, small.counts.at(0), 0);
}

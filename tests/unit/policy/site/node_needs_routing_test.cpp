// Every hiring policy, on one site: a job wanting a GPU, one constrained to
// a feature no cloud node has, one whose tasks are wider and one whose
// memory is larger than any cloud node wait behind a full local node; a
// cheap group of CPU nodes and a dear group of GPU nodes could take them.  Slurm
// starts a job only on nodes with its gres and features: routing it
// elsewhere, or hiring nodes for it that lack them, buys nodes that idle.
#include "policy/policy_registry.hpp"
#include "policy/warm/warm_pool_policy.hpp"

#include "policy/policy_test_state.hpp"
#include "policy/site/routing_test_policies.hpp"

#include <map>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::actions;
using burst::test::hiring_policy;
using burst::test::mentions;
using burst::test::routes;
using burst::test::StateBuilder;

namespace {

constexpr JobId kGpuJob = 2, kInfinibandJob = 3, kWideJob = 4, kHungryJob = 5;

StateBuilder site(bool with_gpu_group)
{
    StateBuilder b;
    b.local("n1", 8, 8).group("cpu", 8, 4, 0.4);
    if (with_gpu_group) {
        b.group("gpu", 8, 4, 4.0);
        b.state.groups.back().gres = "gpu:a100:4";
        for (int i = 1; i <= 4; ++i)
            b.node("gpu-" + std::to_string(i)).features = {"cloud", "a100"};
    }
    for (int i = 1; i <= 4; ++i)
        b.node("cpu-" + std::to_string(i)).features = {"cloud"};
    for (auto& n : b.state.snapshot.nodes)
        n.memory_mb = 16000;
    b.running(1, 8, 0, "r", 7 * 24 * 3600)
        .pending(kGpuJob, 8, BurstOption::Allow, "p", 3600)
        .pending(kInfinibandJob, 8, BurstOption::Allow, "p", 3600)
        .pending(kWideJob, 16, BurstOption::Allow, "p", 3600)
        .pending(kHungryJob, 8, BurstOption::Allow, "p", 3600);
    b.state.snapshot.jobs[1].needs = NodeNeeds("gres:gpu:1", "cloud");
    b.state.snapshot.jobs[2].needs = NodeNeeds("", "cloud&infiniband");
    b.state.snapshot.jobs[3].needs = NodeNeeds("", "", 16, 0);
    b.state.snapshot.jobs[4].needs = NodeNeeds("", "", 1, 20000);
    return b;
}

} // namespace

TEST_GROUP(NodeNeedsRouting){};

TEST(NodeNeedsRouting, EveryPolicyRoutesAndHiresOnlyWhereTheNodesHaveWhatTheJobAsks)
{
    StateBuilder b = site(true);
    bool someone_routed_the_gpu_job = false;
    for (const auto& name : policy_names()) {
        if (name == "never" || name == WarmPoolPolicy::kName) // the warm pool weighs no job
            continue;
        auto policy = hiring_policy(name);
        ManualClock clock(100000);
        const Decision d = policy->decide(b.state, clock);
        for (const auto& r : routes(d)) {
            CHECK_TEXT(r.job != kInfinibandJob && r.job != kWideJob && r.job != kHungryJob,
                       (name + " routed job " + std::to_string(r.job) + ", which no group has the nodes for").c_str());
            if (r.job == kGpuJob) {
                STRCMP_EQUAL_TEXT("gpu", r.group.c_str(), (name + " routed the GPU job to CPU nodes").c_str());
                someone_routed_the_gpu_job = true;
            }
        }
        for (const auto& h : actions<HireNodes>(d))
            STRCMP_EQUAL_TEXT("gpu", h.group.c_str(), (name + " hired nodes no waiting job can run on").c_str());
        CHECK_TEXT(mentions(d, "3 burstable job(s) ask for what no node group's nodes have (e.g. constraint "
                               "cloud&infiniband): they stay local"),
                   (name + " did not say why the constrained job stays").c_str());
    }
    CHECK(someone_routed_the_gpu_job);
}

TEST(NodeNeedsRouting, WithoutNodesThatHaveItNoPolicyRoutesOrHiresForIt)
{
    StateBuilder b = site(false);
    for (const auto& name : policy_names()) {
        auto policy = hiring_policy(name);
        ManualClock clock(100000);
        const Decision d = policy->decide(b.state, clock);
        CHECK_TEXT(routes(d).empty(), (name + " routed a job to nodes that lack what it asks").c_str());
        CHECK_TEXT(actions<HireNodes>(d).empty(), (name + " hired nodes no waiting job can run on").c_str());
        if (name != "never" && name != WarmPoolPolicy::kName)
            CHECK_TEXT(mentions(d, "4 burstable job(s) ask for what no node group's nodes have (e.g. gres "
                                   "gres:gpu:1, constraint cloud)"),
                       (name + " did not say why the jobs stay").c_str());
    }
}

// One CPU job and four GPU jobs wait: each group grows by the jobs its
// nodes could run, not by the whole queue (threshold and pfa sized every
// group by all the waiting work: five CPU nodes, or three, for one job).
TEST(NodeNeedsRouting, EachGroupGrowsOnlyByTheJobsItsNodesCouldRun)
{
    StateBuilder b;
    b.local("n1", 8, 8).group("cpu", 8, 8, 0.4).group("gpu", 8, 8, 4.0);
    b.state.groups[1].gres = "gpu:2";
    b.running(1, 8, 0, "r", 7 * 24 * 3600).pending(2, 8, BurstOption::Allow, "p", 3600);
    for (JobId id = 3; id <= 6; ++id) {
        b.pending(id, 8, BurstOption::Allow, "p", 3600);
        b.state.snapshot.jobs.back().needs = NodeNeeds("gres:gpu:1", "");
    }
    for (const auto& name : policy_names()) {
        auto policy = hiring_policy(name);
        ManualClock clock(100000);
        const Decision d = policy->decide(b.state, clock);
        std::uint32_t cpu_nodes = 0;
        for (const auto& h : actions<HireNodes>(d))
            if (h.group == "cpu")
                cpu_nodes += h.count;
        CHECK_TEXT(cpu_nodes <= 1, (name + " hired " + std::to_string(cpu_nodes) + " CPU nodes for one CPU job").c_str());
        for (const auto& r : routes(d))
            if (r.job >= 3)
                STRCMP_EQUAL_TEXT("gpu", r.group.c_str(), (name + " routed a GPU job to CPU nodes").c_str());
    }
}

// Two GPU groups and one of nodes with feature "c": four GPU jobs and one
// needing "c" wait.  The cheaper GPU group grows for the GPU jobs, the "c"
// group for its job; the dearer GPU group is not hired for jobs already
// covered (threshold counted them again for each group).
TEST(NodeNeedsRouting, AGroupGrowsOnlyForJobsNoEarlierHireCovers)
{
    StateBuilder b;
    b.local("n1", 8, 8).group("g1", 8, 8, 1.0).group("g2", 8, 8, 2.0).group("c", 8, 8, 3.0);
    b.state.groups[0].gres = b.state.groups[1].gres = "gpu:1";
    for (int i = 1; i <= 8; ++i)
        b.node("c-" + std::to_string(i)).features = {"c"};
    b.running(1, 8, 0, "r", 7 * 24 * 3600);
    for (JobId id = 2; id <= 5; ++id) {
        b.pending(id, 8, BurstOption::Allow, "p", 3600);
        b.state.snapshot.jobs.back().needs = NodeNeeds("gres:gpu:1", "");
    }
    b.pending(6, 8, BurstOption::Allow, "p", 3600);
    b.state.snapshot.jobs.back().needs = NodeNeeds("", "c");
    auto policy = hiring_policy("threshold");
    ManualClock clock(100000);
    std::map<std::string, std::uint32_t> hired;
    for (const auto& h : actions<HireNodes>(policy->decide(b.state, clock)))
        hired[h.group] += h.count;
    LONGS_EQUAL(4, hired["g1"]);
    LONGS_EQUAL(0, hired["g2"]);
    LONGS_EQUAL(1, hired["c"]);
}

// Cores up in the CPU group, none in the GPU group: a GPU job that cannot
// be routed holds back only the GPU group, and the CPU job behind it takes
// the CPU cores.
TEST(NodeNeedsRouting, AJobThatDoesNotFitHoldsBackOnlyTheGroupsThatCouldRunIt)
{
    StateBuilder b;
    b.local("n1", 8, 8).group("cpu", 8, 2, 0.4).group("gpu", 8, 2, 4.0);
    b.state.groups[1].gres = "gpu:1";
    b.up("cpu-1");
    b.running(1, 8, 0, "r", 7 * 24 * 3600).pending(2, 8, BurstOption::Allow, "p", 3600);
    b.state.snapshot.jobs.back().needs = NodeNeeds("gres:gpu:1", "");
    b.pending(3, 8, BurstOption::Allow, "p", 3600);
    PolicyParams p;
    p.set("target_utilization", "1");
    p.set("stabilization", "0");
    auto policy = make_policy("threshold", p);
    ManualClock clock(100000);
    bool cpu_job_routed = false;
    for (const auto& r : routes(policy->decide(b.state, clock))) {
        CHECK(r.job != 2 || r.group == "gpu");
        cpu_job_routed = cpu_job_routed || (r.job == 3 && r.group == "cpu");
    }
    CHECK(cpu_job_routed);
}

// Two jobs routed to the CPU group wait for its two idle nodes while a GPU
// job waits: pfa keeps the CPU nodes (it dropped the group from its profile
// and released them) and hires no CPU node for the GPU job.
TEST(NodeNeedsRouting, PfaKeepsTheNodesRoutedJobsWaitFor)
{
    StateBuilder b;
    b.local("n1", 8, 8).group("cpu", 8, 4, 0.4).group("gpu", 8, 4, 4.0);
    b.state.groups[1].gres = "gpu:1";
    b.up("cpu-1").up("cpu-2");
    b.running(1, 8, 0, "r", 7 * 24 * 3600)
        .pending(2, 8, BurstOption::Allow, "p", 3600)
        .pending(3, 8, BurstOption::Allow, "p", 3600)
        .pending(4, 8, BurstOption::Allow, "p", 3600);
    b.state.snapshot.jobs[1].partitions = {"local", "cpu"};
    b.state.snapshot.jobs[2].partitions = {"local", "cpu"};
    b.state.snapshot.jobs[3].needs = NodeNeeds("gres:gpu:1", "");
    auto policy = hiring_policy("pfa");
    ManualClock clock(100000);
    const Decision d = policy->decide(b.state, clock);
    for (const auto& r : actions<ReleaseNodes>(d))
        CHECK_TEXT(r.nodes.empty(), ("pfa released " + r.nodes.front() + ", which routed jobs wait for").c_str());
    for (const auto& h : actions<HireNodes>(d))
        CHECK_TEXT(h.group != "cpu", "pfa hired CPU nodes for a GPU job");
}

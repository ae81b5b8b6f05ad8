#include "policy/site/site_view.hpp"

#include "policy/policy_test_state.hpp"

#include <algorithm>
#include <sys/wait.h>
#include <unistd.h>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;
using burst::test::StateBuilder;

TEST_GROUP(SiteView){};

TEST(SiteView, CountsLocalAndCloudCapacity)
{
    StateBuilder b;
    b.local("n1", 8, 6).local("n2", 8, 0).group("g", 4, 3, 1.0).up("g-1", 1);
    b.node("g-2").flags = kNodeCloud | kNodePoweringUp;
    b.pending(1, 2).pending(2, 4);
    b.state.snapshot.jobs.back().partitions = {"local", "g"}; // job 2 routed
    SiteView v = SiteView::of(b.state);
    LONGS_EQUAL(16, v.local_cpus);
    LONGS_EQUAL(10, v.local_free_cpus);
    LONGS_EQUAL(6, v.local_alloc_cpus);
    const GroupView& g = v.groups[0];
    LONGS_EQUAL(1, g.up_nodes);
    LONGS_EQUAL(1, g.booting_nodes);
    LONGS_EQUAL(1, g.hireable_nodes);
    LONGS_EQUAL(3, g.free_up_cpus);
    LONGS_EQUAL(4, g.free_booting_cpus);
    LONGS_EQUAL(4, g.routed_pending_cpus);
    LONGS_EQUAL(3 + 4 + 4 - 4, g.free_capacity());
    LONGS_EQUAL(-1, v.pending_group[0]);
    LONGS_EQUAL(0, v.pending_group[1]);
}

TEST(SiteView, OrdersPendingByPriorityThenSubmitThenId)
{
    StateBuilder b;
    b.pending(5, 1).pending(3, 1).pending(4, 1);
    b.state.snapshot.jobs[0].priority = 10;
    b.state.snapshot.jobs[1].priority = 10;
    b.state.snapshot.jobs[1].submit_time = 5; // same submit as job 5
    b.state.snapshot.jobs[2].priority = 99;
    SiteView v = SiteView::of(b.state);
    LONGS_EQUAL(4, v.pending[0]->id);
    LONGS_EQUAL(3, v.pending[1]->id);
    LONGS_EQUAL(5, v.pending[2]->id);
}

TEST(SiteView, CopiesWhatPoliciesReadOfEachWaitingJobInPriorityOrder)
{
    StateBuilder b;
    b.pending(1, 2).pending(2, 3, BurstOption::Never).pending(3, 1, BurstOption::Prefer);
    auto& jobs = b.state.snapshot.jobs;
    jobs[0].priority = 1;
    jobs[1].priority = 300; // a priority above one byte: two radix passes
    jobs[1].array_task_count = 4;
    jobs[1].eligible_time = 50;
    jobs[2].priority = 7;
    SiteView v = SiteView::of(b.state);
    LONGS_EQUAL(3, v.pending.size());
    LONGS_EQUAL(2, v.pending[0]->id);
    LONGS_EQUAL(3, v.pending[1]->id);
    LONGS_EQUAL(1, v.pending[2]->id);
    for (std::size_t i = 0; i < v.pending.size(); ++i) {
        LONGS_EQUAL(v.pending[i]->total_cpus(), v.pending_cpus[i]);
        CHECK(v.pending[i]->burst == v.pending_burst[i]);
        DOUBLES_EQUAL(std::max(v.pending[i]->submit_time, v.pending[i]->eligible_time), v.pending_since[i], 0);
    }
    LONGS_EQUAL(12, v.pending_cpus[0]);
    DOUBLES_EQUAL(50, v.pending_since[0], 0);
}

TEST(SiteView, SortsAScrambledQueueOnEveryPriorityByteStablyAndLeavesOutDependencyHolds)
{
    // Priorities spread over all four bytes, with ties, in no particular
    // snapshot order (burstsim's queue after jobs end): the order must be
    // priority, then submit, then id, as a comparison sort gives.
    StateBuilder b;
    b.group("g", 4, 2, 1.0);
    for (JobId id = 1; id <= 600; ++id) {
        b.pending(id, 1 + id % 5);
        Job& j = b.state.snapshot.jobs.back();
        j.priority = std::uint32_t((std::uint64_t(id) * 2654435761u) % 97) * 0x01010101u + (id % 3) * 0x10000u;
        j.submit_time = double((id * 7919) % 50);
        if (id % 11 == 0)
            j.reason = id % 2 ? "Dependency" : "DependencyNeverSatisfied";
        if (id % 13 == 0)
            j.partitions = {"local", "g"};
    }
    std::vector<const Job*> expect;
    for (const auto& j : b.state.snapshot.jobs)
        if (j.id % 11 != 0)
            expect.push_back(&j);
    std::sort(expect.begin(), expect.end(), [](const Job* x, const Job* y) {
        if (x->priority != y->priority)
            return x->priority > y->priority;
        if (x->submit_time != y->submit_time)
            return x->submit_time < y->submit_time;
        return x->id < y->id;
    });
    SiteView v = SiteView::of(b.state);
    LONGS_EQUAL(expect.size(), v.pending.size());
    std::uint64_t routed = 0;
    for (std::size_t i = 0; i < expect.size(); ++i) {
        LONGS_EQUAL(expect[i]->id, v.pending[i]->id);
        LONGS_EQUAL(expect[i]->total_cpus(), v.pending_cpus[i]);
        LONGS_EQUAL(expect[i]->id % 13 == 0 ? 0 : -1, v.pending_group[i]);
        if (expect[i]->id % 13 == 0)
            routed += expect[i]->total_cpus();
    }
    LONGS_EQUAL(routed, v.groups[0].routed_pending_cpus);
}

TEST(SiteView, RecordsTheGroupOfEveryRunningJob)
{
    StateBuilder b;
    b.group("g", 4, 2, 1.0).up("g-1", 4);
    b.running(1, 2, 0).running(2, 4, 0);
    b.state.snapshot.jobs.back().partitions = {"g"};
    SiteView v = SiteView::of(b.state);
    LONGS_EQUAL(2, v.running.size());
    LONGS_EQUAL(2, v.running_group.size());
    LONGS_EQUAL(-1, v.running_group[0]);
    LONGS_EQUAL(0, v.running_group[1]);
}

TEST(SiteView, HonoursMaxCount)
{
    StateBuilder b;
    b.group("g", 4, 5, 1.0);
    b.state.groups[0].max_count = 2;
    b.up("g-1");
    LONGS_EQUAL(1, SiteView::of(b.state).groups[0].hireable_nodes);
}

TEST(SiteView, AGroupsHireLimitCapsItsHireableNodes)
{
    StateBuilder b;
    b.group("open", 4, 5, 1.0).group("probing", 4, 5, 1.0).group("fine", 4, 5, 1.0);
    b.up("open-1");
    b.state.hire_limits = {{"open", 0}, {"probing", 1}};
    SiteView v = SiteView::of(b.state);
    LONGS_EQUAL(0, v.groups[0].hireable_nodes);
    LONGS_EQUAL(4, v.groups[0].free_capacity()); // its up node still takes work
    LONGS_EQUAL(1, v.groups[1].hireable_nodes);
    LONGS_EQUAL(5, v.groups[2].hireable_nodes);
}

// A job may be in several groups' partitions (Slurm runs it in whichever
// has room first): SiteView counts it against the group of its first
// partition that has one, in the job's order, as it did when it compared
// names per job.
TEST(SiteView, AJobInTwoGroupsPartitionsBelongsToItsFirst)
{
    StateBuilder b;
    b.group("g1", 4, 2, 1.0).group("g2", 4, 2, 1.0);
    b.pending(1, 2).pending(2, 3).pending(3, 5);
    auto& jobs = b.state.snapshot.jobs;
    jobs[0].partitions = {"local", "g2", "g1"};
    jobs[1].partitions = {"g1", "g2"};
    jobs[2].partitions = {"local"};
    SiteView v = SiteView::of(b.state);
    LONGS_EQUAL(1, v.pending_group[0]);
    LONGS_EQUAL(0, v.pending_group[1]);
    LONGS_EQUAL(-1, v.pending_group[2]);
    LONGS_EQUAL(3, v.groups[0].routed_pending_cpus);
    LONGS_EQUAL(2, v.groups[1].routed_pending_cpus);
}

// Partitions no group holds (a debug partition, one the exporter names but
// burstd's configuration does not) make a job local, alone or beside a
// group's.
TEST(SiteView, PartitionsOfNoGroupAreLocal)
{
    StateBuilder b;
    b.group("g", 4, 2, 1.0);
    b.pending(1, 2).pending(2, 2).pending(3, 2);
    auto& jobs = b.state.snapshot.jobs;
    jobs[0].partitions = {"debug"};
    jobs[1].partitions = {"debug", "gpu", "g"};
    jobs[2].partitions = {};
    SiteView v = SiteView::of(b.state);
    LONGS_EQUAL(-1, v.pending_group[0]);
    LONGS_EQUAL(0, v.pending_group[1]);
    LONGS_EQUAL(-1, v.pending_group[2]);
}

// No limit on the number of groups (no 64-bit mask to overflow): jobs routed
// to the 65th and the 70th group find them.
TEST(SiteView, FindsGroupsBeyondTheSixtyFourth)
{
    StateBuilder b;
    for (int g = 0; g < 70; ++g)
        b.group("g" + std::to_string(g), 4, 1, 1.0);
    b.pending(1, 2).pending(2, 3).pending(3, 5);
    b.running(4, 1, 0);
    auto& jobs = b.state.snapshot.jobs;
    jobs[0].partitions = {"local", "g69"};
    jobs[1].partitions = {"g64"};
    jobs[2].partitions = {"local", "g0"};
    jobs[3].partitions = {"g65"};
    SiteView v = SiteView::of(b.state);
    LONGS_EQUAL(69, v.pending_group[0]);
    LONGS_EQUAL(64, v.pending_group[1]);
    LONGS_EQUAL(0, v.pending_group[2]);
    LONGS_EQUAL(65, v.running_group[0]);
    LONGS_EQUAL(2, v.groups[69].routed_pending_cpus);
    LONGS_EQUAL(3, v.groups[64].routed_pending_cpus);
}

// A job's list maps to groups afresh in every decision: the groups come from
// burstd's configuration, which a reload may reorder or change while the
// jobs keep their partitions.
TEST(SiteView, MapsPartitionsToTheGroupsOfEachDecision)
{
    StateBuilder b;
    b.group("a", 4, 1, 1.0).group("b", 4, 1, 1.0);
    b.pending(1, 2);
    b.state.snapshot.jobs[0].partitions = {"local", "b"};
    LONGS_EQUAL(1, SiteView::of(b.state).pending_group[0]);
    std::swap(b.state.groups[0], b.state.groups[1]);
    LONGS_EQUAL(0, SiteView::of(b.state).pending_group[0]);
    b.state.groups.pop_back();
    b.state.groups[0].name = "c";
    LONGS_EQUAL(-1, SiteView::of(b.state).pending_group[0]);
}

// A group offers the Gres= burstd.conf gives it and the features every one
// of its nodes lists in the snapshot: a job routed there may get any node.
TEST(SiteView, AGroupOffersItsGresAndTheFeaturesAllItsNodesHave)
{
    StateBuilder b;
    b.local("n1", 8, 8).group("g", 8, 3, 1.0);
    b.state.groups[0].gres = "gpu:a100:2(S:0),mps:100";
    b.node("g-1").features = {"cloud", "a100", "ib"};
    b.node("g-2").features = {"ib", "cloud"};
    b.node("g-3").features = {"cloud", "ib", "nvme"};
    b.pending(1, 8).pending(2, 8).pending(3, 8).pending(4, 8);
    b.state.snapshot.jobs[0].needs = NodeNeeds("gres:gpu:a100:2", "cloud&ib");
    b.state.snapshot.jobs[1].needs = NodeNeeds("gres:gpu:3", "");
    b.state.snapshot.jobs[2].needs = NodeNeeds("", "nvme");
    SiteView v = SiteView::of(b.state);
    const GroupView& g = v.groups[0];
    CHECK((std::vector<std::string>{"cloud", "ib"}) == g.offer.features);
    LONGS_EQUAL(2, g.offer.gres.size());
    CHECK(v.serves(v.pending_needs[0], g));
    CHECK_FALSE(v.serves(v.pending_needs[1], g)); // 3 GPUs on 2-GPU nodes
    CHECK_FALSE(v.serves(v.pending_needs[2], g)); // one node of three has nvme
    CHECK(v.serves(v.pending_needs[3], g));
    // Those no group serves are local work to every policy, and counted.
    CHECK(BurstOption::Allow == v.pending_burst[0]);
    CHECK(BurstOption::Never == v.pending_burst[1]);
    CHECK(BurstOption::Never == v.pending_burst[2]);
    CHECK(BurstOption::Allow == v.pending_burst[3]);
    LONGS_EQUAL(2, v.unservable_jobs);
    LONGS_EQUAL(1, v.needs_notes().size());
    STRCMP_EQUAL("2 burstable job(s) ask for what no node group's nodes have (e.g. gres gres:gpu:3): they stay local",
                 v.needs_notes()[0].c_str());
    CHECK(v.served_somewhere(v.pending_needs[0]));
    CHECK_FALSE(v.served_somewhere(v.pending_needs[2]));
}

// Slurm's CPUs and RealMemory of the group's nodes, the smallest of them;
// the group's own Cpus= and MemoryMB= for nodes Slurm does not list.
TEST(SiteView, AGroupOffersTheCpusAndMemoryOfItsSmallestNode)
{
    StateBuilder b;
    b.local("n1", 8, 8).group("listed", 8, 2, 1.0).group("unlisted", 4, 1, 1.0);
    b.node("listed-1").memory_mb = 32000;
    b.node("listed-2").memory_mb = 16000;
    b.state.groups[1].memory_mb = 7000;
    b.state.snapshot.nodes.pop_back(); // unlisted-1
    b.pending(1, 8);
    b.state.snapshot.jobs[0].needs = NodeNeeds("", "", 8, 20000);
    SiteView v = SiteView::of(b.state);
    LONGS_EQUAL(8, v.groups[0].offer.cpus);
    LONGS_EQUAL(16000, v.groups[0].offer.memory_mb);
    LONGS_EQUAL(4, v.groups[1].offer.cpus);
    LONGS_EQUAL(7000, v.groups[1].offer.memory_mb);
    LONGS_EQUAL(1, v.unservable_jobs);
    STRCMP_EQUAL("1 burstable job(s) ask for what no node group's nodes have (e.g. 8 CPUs per node, 20000 MB per "
                 "node): they stay local",
                 v.needs_notes().at(0).c_str());
}

// A job already routed to a group is its demand whatever it asks; a job
// that may not burst is not counted as one the groups fail.
TEST(SiteView, RoutedJobsAndJobsThatMayNotBurstAreNotCountedUnservable)
{
    StateBuilder b;
    b.local("n1", 8, 8).group("g", 8, 2, 1.0);
    b.pending(1, 8).pending(2, 8, BurstOption::Never);
    b.state.snapshot.jobs[0].partitions = {"local", "g"};
    for (auto& j : b.state.snapshot.jobs)
        j.needs = NodeNeeds("gres:gpu:1", "");
    SiteView v = SiteView::of(b.state);
    LONGS_EQUAL(0, v.unservable_jobs);
    LONGS_EQUAL(8, v.groups[0].routed_pending_cpus);
    CHECK(BurstOption::Allow == v.pending_burst[0]);
}

// Past 65,534 distinct combinations NodeNeeds checks no more: such jobs are
// routed as if they asked nothing, and every decision says how many there
// are.  Filling the process-wide table would end the checks for every test
// after this one, so a child process fills it.
TEST(SiteView, JobsWhoseNeedsCameAfterTheTableFilledAreCountedAndNoted)
{
    const pid_t child = fork();
    if (child == 0) {
        NodeNeeds last;
        for (std::uint64_t memory = 1; memory <= 70000; ++memory)
            last = NodeNeeds("gres:gpu:1", "", 1, memory);
        const NodeNeeds early("gres:gpu:1", "", 1, 1);
        StateBuilder b;
        b.local("n1", 8, 8).group("cpu", 8, 2, 1.0);
        b.pending(1, 8).pending(2, 8);
        b.state.snapshot.jobs[0].needs = last;
        b.state.snapshot.jobs[1].needs = early;
        SiteView v = SiteView::of(b.state);
        const auto notes = v.needs_notes();
        const bool as_expected =
            last.unchecked() && !early.unchecked() && NodeNeeds::id_bound() == 65536 &&
            NodeNeeds("gres:gpu:1", "", 1, 69999) == last && v.unchecked_jobs == 1 && v.unservable_jobs == 1 &&
            v.serves(last, v.groups[0]) && !v.serves(early, v.groups[0]) && notes.size() == 2 &&
            notes[0].find("1 waiting job(s) ask for gres, constraints, CPUs or memory in combinations beyond the "
                          "65534 burstd tells apart") == 0;
        _exit(as_expected ? 0 : 1);
    }
    int status = -1;
    waitpid(child, &status, 0);
    CHECK(WIFEXITED(status));
    LONGS_EQUAL(0, WEXITSTATUS(status));
}

// A copy of the groups (pfa routes on one) keeps each group's index: the
// view answers for the second group of the copy as for its own.
TEST(SiteView, CopiesOfItsGroupsAreAnsweredForAsItsOwn)
{
    StateBuilder b;
    b.local("n1", 8, 8).group("cpu", 8, 1, 1.0).group("gpu", 8, 1, 2.0);
    b.state.groups[1].gres = "gpu:1";
    b.pending(1, 8);
    b.state.snapshot.jobs[0].needs = NodeNeeds("gres:gpu:1", "");
    SiteView v = SiteView::of(b.state);
    const std::vector<GroupView> copy = v.groups;
    LONGS_EQUAL(1, copy[1].index);
    CHECK_FALSE(v.serves(v.pending_needs[0], copy[0]));
    CHECK(v.serves(v.pending_needs[0], copy[1]));
}

// Slurm's word on a node's gres is the snapshot's: the group's Gres= counts
// only while Slurm lists none for its nodes.  Nodes that differ offer what
// they all have.
TEST(SiteView, AGroupOffersTheGresSlurmListsForAllItsNodes)
{
    StateBuilder b;
    b.local("n1", 8, 8).group("listed", 8, 2, 1.0).group("unlisted", 8, 1, 1.0);
    b.state.groups[0].gres = "gpu:8";
    b.state.groups[1].gres = "gpu:v100:1";
    b.node("listed-1").gres = "gpu:a100:4(S:0-1),mps:100";
    b.node("listed-2").gres = "gpu:a100:2";
    SiteView v = SiteView::of(b.state);
    CHECK((std::vector<GresCount>{{"gpu", "a100", 2}}) == v.groups[0].offer.gres);
    CHECK((std::vector<GresCount>{{"gpu", "v100", 1}}) == v.groups[1].offer.gres);
    // A node Slurm lists without gres has none, and so then has the group.
    b.node("listed-2").gres = "";
    CHECK(SiteView::of(b.state).groups[0].offer.gres.empty());
}

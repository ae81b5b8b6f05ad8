#include "slurm/job_cpu_change.hpp"

#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

Job pending_job()
{
    Job j;
    j.id = 42;
    j.state = JobState::Pending;
    return j;
}

std::vector<Node> nodes_with(std::vector<std::uint32_t> cpus)
{
    std::vector<Node> out;
    for (auto c : cpus) {
        Node n;
        n.name = "c" + std::to_string(out.size() + 1);
        n.cpus = c;
        out.push_back(n);
    }
    return out;
}

std::string refusal(const Job& job, std::uint32_t tasks, std::uint32_t cpt, const std::vector<Node>& nodes)
{
    try {
        JobCpuChange::validated(job, tasks, cpt, nodes);
    } catch (const JobCpuChangeError& e) {
        return e.what();
    }
    return "";
}

bool contains(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

} // namespace

TEST_GROUP(JobCpuChange){};

TEST(JobCpuChange, SetsTheTotalExplicitlyFromTasksTimesCpusPerTask)
{
    Job job = pending_job();
    job.node_count = 2;
    auto c = JobCpuChange::validated(job, 3, 4, nodes_with({8, 8}));
    LONGS_EQUAL(42, c.job());
    LONGS_EQUAL(3, c.num_tasks());
    LONGS_EQUAL(4, c.cpus_per_task());
    LONGS_EQUAL(12, c.min_cpus());
}

TEST(JobCpuChange, RefusesAJobThatIsNoLongerPending)
{
    Job j = pending_job();
    j.state = JobState::Running;
    CHECK(contains(refusal(j, 1, 1, nodes_with({4})), "not pending"));
}

TEST(JobCpuChange, RefusesZeroCounts)
{
    CHECK(contains(refusal(pending_job(), 0, 1, nodes_with({4})), "at least 1"));
    CHECK(contains(refusal(pending_job(), 1, 0, nodes_with({4})), "at least 1"));
}

TEST(JobCpuChange, RefusesATaskWiderThanEveryNode)
{
    auto why = refusal(pending_job(), 1, 6, nodes_with({4, 2}));
    CHECK(contains(why, "widest eligible node has 4"));
}

TEST(JobCpuChange, CountsOnlyWholeTasksPerNode)
{
    // 3-CPU tasks: a 4-CPU node holds one, a 6-CPU node two: three in all.
    Job two_nodes = pending_job();
    two_nodes.node_count = 2;
    CHECK(refusal(two_nodes, 3, 3, nodes_with({4, 6})).empty());
    CHECK(contains(refusal(two_nodes, 4, 3, nodes_with({4, 6})), "hold only 3"));
}

TEST(JobCpuChange, FitsTheTasksIntoTheJobsNodeCountOfTheWidestNodes)
{
    // One node asked for: only the widest (6 CPUs) counts, two 3-CPU tasks.
    CHECK(refusal(pending_job(), 2, 3, nodes_with({4, 6, 4})).empty());
    CHECK(contains(refusal(pending_job(), 3, 3, nodes_with({4, 6, 4})), "1 eligible node(s)"));
}

TEST(JobCpuChange, RefusesWhenNoNodeIsEligible)
{
    CHECK(!refusal(pending_job(), 1, 1, {}).empty());
}

TEST(JobCpuChange, RefusesShapesBeyondSlurmsFields)
{
    CHECK(contains(refusal(pending_job(), 70000, 70000, nodes_with({4})), "overflows"));
    CHECK(contains(refusal(pending_job(), 1, 70000, nodes_with({100000})), "16-bit"));
}

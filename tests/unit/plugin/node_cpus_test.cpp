#include "../../../plugin/node_cpus.h"

#include <CppUTest/TestHarness.h>

namespace {
constexpr std::uint32_t kNoVal = 0xfffffffe;
constexpr std::uint32_t kInfinite = 0xffffffff;
} // namespace

TEST_GROUP(NodeCpus){};

// The arguments are as slurmctld 22.05 keeps a pending job's details:
// pn_min_cpus, cpus_per_task, num_tasks, min_cpus, max_nodes.
TEST(NodeCpus, AJobThatMaySpreadNeedsItsPerNodeMinimum)
{
    LONGS_EQUAL(1, node_cpus(1, 1, 16, 16, 0, 0));     // -n16
    LONGS_EQUAL(4, node_cpus(4, 4, 2, 8, 0, 0));       // -n2 -c4
    LONGS_EQUAL(8, node_cpus(8, 2, 8, 16, 0, 0));      // --ntasks-per-node=4 -c2 -n8
    LONGS_EQUAL(6, node_cpus(6, 1, 2, 2, kNoVal, 0));  // --mincpus=6
    LONGS_EQUAL(1, node_cpus(1, 1, 64, 64, kInfinite, 0));
}

// -N1 -n16 cannot start on nodes of 8 CPUs, however many of them there are.
TEST(NodeCpus, AJobLimitedToFewNodesNeedsItsTasksShareOnEach)
{
    LONGS_EQUAL(16, node_cpus(1, 1, 16, 16, 1, 0));  // -N1 -n16
    LONGS_EQUAL(16, node_cpus(2, 2, 8, 16, 1, 0));   // -N1 -n8 -c2
    LONGS_EQUAL(8, node_cpus(1, 1, 16, 16, 2, 0));   // -N2 -n16
    // Tasks are whole: 5 tasks of 3 CPUs on 2 nodes put 3 tasks on one.
    LONGS_EQUAL(9, node_cpus(3, 3, 5, 15, 2, 0));
    // The per-node minimum still holds when it is more.
    LONGS_EQUAL(12, node_cpus(12, 1, 4, 24, 2, 0));
}

TEST(NodeCpus, WithoutATaskCountTheCpusAreShared)
{
    LONGS_EQUAL(16, node_cpus(1, 1, 0, 16, 1, 0));       // -N1 with 16 CPUs, no -n
    LONGS_EQUAL(3, node_cpus(1, 1, kNoVal, 5, 2, 0));
    LONGS_EQUAL(1, node_cpus(0, 0, 0, 0, 0, 0));
}

// --overcommit: the tasks share CPUs, so sbatch asks one CPU per node and
// slurmctld neither counts the tasks' CPUs nor raises pn_min_cpus.
TEST(NodeCpus, OvercommittedTasksAskNoCpusOfTheirOwn)
{
    LONGS_EQUAL(1, node_cpus(1, 1, 16, 1, 1, 1));  // -N1 -n16 -O
    LONGS_EQUAL(2, node_cpus(2, 2, 16, 1, 1, 1));  // -N1 -n16 -c2 -O: a task's CPUs still
}


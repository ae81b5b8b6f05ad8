#include "model/job.hpp"
#include "model/partition_set.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(PartitionSet){};

TEST(PartitionSet, EqualListsAreOneValueWithOneId)
{
    PartitionSet a{"ps-batch", "ps-cloud"};
    PartitionSet b(std::vector<std::string>{"ps-batch", "ps-cloud"});
    CHECK(a == b);
    LONGS_EQUAL(a.id(), b.id());
    CHECK(&a.names() == &b.names());
    LONGS_EQUAL(2, a.size());
    STRCMP_EQUAL("ps-batch", a[0].c_str());
    STRCMP_EQUAL("ps-cloud", a[1].c_str());
    CHECK(a.id() > 0);
    CHECK(a.id() < PartitionSet::id_bound());
}

// Slurm tries a job's partitions in the order given, and the first that
// belongs to a node group decides the job's group: order is part of the value.
TEST(PartitionSet, OrderAndEveryNameCount)
{
    PartitionSet ab{"ps-a", "ps-b"}, ba{"ps-b", "ps-a"}, a{"ps-a"};
    CHECK(ab != ba);
    CHECK(ab.id() != ba.id());
    CHECK(ab.id() != a.id());
    CHECK(ba.id() != a.id());
}

TEST(PartitionSet, NoPartitionIsIdZero)
{
    PartitionSet none, empty(std::vector<std::string>{});
    CHECK(none == empty);
    LONGS_EQUAL(0, none.id());
    CHECK_TRUE(none.empty());
    LONGS_EQUAL(0, none.size());
    CHECK(none.begin() == none.end());
    LONGS_EQUAL(0, Job{}.partitions.id());
}

// SiteView sizes its per-decision table by id_bound(): every list interned
// so far has an id below it.
TEST(PartitionSet, ANewListGetsTheBoundAsItsIdAndRaisesIt)
{
    const std::uint32_t bound = PartitionSet::id_bound();
    PartitionSet fresh{"ps-new-" + std::to_string(bound)};
    LONGS_EQUAL(bound, fresh.id());
    LONGS_EQUAL(bound + 1, PartitionSet::id_bound());
    PartitionSet again{"ps-new-" + std::to_string(bound)};
    LONGS_EQUAL(bound, again.id());
    LONGS_EQUAL(bound + 1, PartitionSet::id_bound());
}

// Reassigning a job's partitions (the policy cycle unrouting it, burstsim
// routing it) gives it the new list's id.
TEST(PartitionSet, AJobTakesTheIdOfItsNewList)
{
    Job job;
    job.partitions = {"ps-local", "ps-cloud"};
    const std::uint32_t routed = job.partitions.id();
    job.partitions = {"ps-local"};
    CHECK(job.partitions.id() != routed);
    CHECK(job.partitions == PartitionSet{"ps-local"});
}

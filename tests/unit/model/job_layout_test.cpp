// Job's field order is a performance contract, not a style: SiteView::of and
// the policies' per-job loops walk up to a million Jobs per decision, and
// every cache line of a Job they touch is a line streamed from memory.  With
// the fields those loops read scattered among the strings, a decision read 5
// of the 7 lines of each job and grew 15-17x from 100k to 1M pending jobs
// (n log n allows 12x).  These tests fail if the hot fields drift out of the
// lines job.hpp assigns them; the offsets are taken from a live Job because
// offsetof is not defined for a class holding std::string.
#include "model/job.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

constexpr std::size_t kLine = 64;

template <typename Field>
std::size_t end_of(const Job& job, const Field& field)
{
    return std::size_t(reinterpret_cast<const char*>(&field) - reinterpret_cast<const char*>(&job)) + sizeof(Field);
}

template <typename Field>
std::size_t start_of(const Job& job, const Field& field)
{
    return end_of(job, field) - sizeof(Field);
}

void check_within(std::size_t start, std::size_t end, std::size_t lo, std::size_t hi, const char* name)
{
    const std::string where = std::string("Job::") + name + " at bytes " + std::to_string(start) + ".." +
                              std::to_string(end) + ", expected within " + std::to_string(lo) + ".." +
                              std::to_string(hi);
    CHECK_TEXT(start >= lo && end <= hi, where.c_str());
}

#define CHECK_IN_LINE(job, field, line) \
    check_within(start_of(job, job.field), end_of(job, job.field), (line)*kLine, ((line) + 1) * kLine, #field)

} // namespace

TEST_GROUP(JobLayout){};

// Everything SiteView::of reads of every job in the snapshot, and what the
// play-forward of running jobs reads with their cores.  The partitions and
// the pending reason are interned values here (model/partition_set.hpp,
// model/pending_reason.hpp): as a vector of names the partitions were a heap
// block of their own to read per job, 48 MB per decision at a million jobs,
// and as a std::string the reason was a second line of every waiting job,
// 64 MB.
TEST(JobLayout, WhatSiteViewReadsOfEveryJobIsItsFirstCacheLine)
{
    Job job;
    CHECK_IN_LINE(job, id, 0);
    CHECK_IN_LINE(job, array_task_count, 0);
    CHECK_IN_LINE(job, state, 0);
    CHECK_IN_LINE(job, priority, 0);
    CHECK_IN_LINE(job, cpus, 0);
    CHECK_IN_LINE(job, burst, 0);
    CHECK_IN_LINE(job, needs, 0);
    CHECK_IN_LINE(job, submit_time, 0);
    CHECK_IN_LINE(job, eligible_time, 0);
    CHECK_IN_LINE(job, partitions, 0);
    LONGS_EQUAL(sizeof(void*), sizeof(job.partitions));
    CHECK_IN_LINE(job, reason, 0);
    CHECK_IN_LINE(job, time_limit, 0);
    CHECK_IN_LINE(job, start_time, 0);
}

// The sizes the cost bounds read next to it.
TEST(JobLayout, SizesAreItsSecondLine)
{
    Job job;
    CHECK_IN_LINE(job, node_count, 1);
    CHECK_IN_LINE(job, cpus_per_task, 1);
    CHECK_IN_LINE(job, memory_mb, 1);
}

// pfa's token waves read both of every job in snapshot order, and parse the
// dependency with find(), which reads 32 bytes from its first character: a
// dependency later in the line touched the next one too (pfa with dependency
// chains took 25% longer).  The runtime estimates read the category of
// waiting jobs in priority order, where each line touched is a miss of its own.
TEST(JobLayout, DependencyStartsALineAccountFollowsAndCategoryHasOne)
{
    Job job;
    CHECK_IN_LINE(job, dependency, 2);
    LONGS_EQUAL(2 * kLine, start_of(job, job.dependency));
    CHECK_IN_LINE(job, account, 2);
    CHECK_IN_LINE(job, category, 3);
}

// Without the alignment a Job in a vector starts anywhere in a line, and the
// two hot lines above become three.
TEST(JobLayout, EveryJobOfAVectorStartsACacheLine)
{
    LONGS_EQUAL(kLine, alignof(Job));
    std::vector<Job> jobs(3);
    for (const auto& job : jobs)
        LONGS_EQUAL(0, reinterpret_cast<std::uintptr_t>(&job) % kLine);
}

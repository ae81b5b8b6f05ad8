#include "ingest/snapshot_assembler.hpp"

#include <algorithm>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

Job job(JobId id, std::uint32_t priority, JobState state = JobState::Pending)
{
    Job j;
    j.id = id;
    j.priority = priority;
    j.state = state;
    j.account = "bio";
    return j;
}

Node node(const std::string& name, std::uint32_t alloc)
{
    Node n;
    n.name = name;
    n.cpus = 8;
    n.alloc_cpus = alloc;
    return n;
}

Share share(const std::string& account, const std::string& user, double usage)
{
    Share s;
    s.account = account;
    s.user = user;
    s.raw_usage = usage;
    return s;
}

Snapshot whole(std::uint64_t seq)
{
    Snapshot s;
    s.seq = seq;
    s.jobs = {job(1, 10), job(2, 20), job(3, 30, JobState::Running)};
    s.nodes = {node("n1", 0), node("n2", 8)};
    s.partitions = {Partition{"batch", {"n1", "n2"}}};
    s.shares = {share("bio", "", 1), share("bio", "ann", 2)};
    return s;
}

// The check a correct plugin would send for `after`.
SnapshotCheck check_of(const Snapshot& after)
{
    return SnapshotCheck{after.jobs.size(), after.nodes.size(), after.partitions.size(), after.shares.size(),
                         job_fingerprint_sum(after.jobs)};
}

const Job* find_job(const Snapshot& s, JobId id)
{
    auto it = std::find_if(s.jobs.begin(), s.jobs.end(), [&](const Job& j) { return j.id == id; });
    return it == s.jobs.end() ? nullptr : &*it;
}

} // namespace

TEST_GROUP(SnapshotAssembler){};

TEST(SnapshotAssembler, AppliesChangesRemovalsAndPrioritiesInPlace)
{
    SnapshotAssembler a;
    CHECK(a.state() == nullptr);
    a.replace(whole(40), 1);

    Snapshot expected = whole(40);
    expected.jobs = {job(4, 40), job(2, 25), job(3, 30, JobState::Running)};
    expected.nodes = {node("n1", 8), node("n2", 8), node("n3", 0)};
    expected.shares = {share("bio", "", 1)};

    SnapshotDelta d;
    d.base = 40;
    d.jobs = {job(4, 40)};
    d.priorities = {{2, 25}};
    d.removed_jobs = {1};
    d.nodes = {node("n1", 8), node("n3", 0)};
    d.shares = std::vector<Share>{share("bio", "", 1)};
    d.check = check_of(expected);
    STRCMP_EQUAL("", a.apply(std::move(d), 43, 1700000005, 1).c_str());

    const Snapshot* s = a.state();
    CHECK(s != nullptr);
    LONGS_EQUAL(43, s->seq);
    LONGS_EQUAL(1700000005, s->time);
    LONGS_EQUAL(3, s->jobs.size());
    CHECK(find_job(*s, 1) == nullptr);
    // The others keep their order; new ones come last.
    LONGS_EQUAL(2, s->jobs[0].id);
    LONGS_EQUAL(3, s->jobs[1].id);
    LONGS_EQUAL(4, s->jobs[2].id);
    LONGS_EQUAL(25, find_job(*s, 2)->priority);
    LONGS_EQUAL(40, find_job(*s, 4)->priority);
    LONGS_EQUAL(3, s->nodes.size());
    LONGS_EQUAL(8, s->nodes[0].alloc_cpus);
    LONGS_EQUAL(1, s->shares.size());

    // The next delta builds on this one.
    SnapshotDelta next;
    next.base = 43;
    next.removed_jobs = {s->jobs[0].id};
    Snapshot after = *s;
    after.jobs.erase(after.jobs.begin());
    next.check = check_of(after);
    STRCMP_EQUAL("", a.apply(std::move(next), 44, 1700000010, 1).c_str());
    LONGS_EQUAL(2, a.state()->jobs.size());
}

TEST(SnapshotAssembler, AGapDropsTheStateUntilTheNextWholeSnapshot)
{
    SnapshotAssembler a;
    a.replace(whole(40), 1);
    SnapshotDelta d;
    d.base = 39;
    d.check = check_of(whole(40));
    STRCMP_EQUAL("base 39 is not the state's last message 40", a.apply(std::move(d), 41, 0, 1).c_str());
    CHECK(a.state() == nullptr);

    SnapshotDelta later;
    later.base = 41;
    STRCMP_EQUAL("no whole snapshot to apply it to", a.apply(std::move(later), 42, 0, 1).c_str());
    a.replace(whole(50), 1);
    CHECK(a.state() != nullptr);
}

TEST(SnapshotAssembler, ADeltaNamingJobsOrRecordsItDoesNotHoldDropsTheState)
{
    auto refused = [](SnapshotDelta d) {
        SnapshotAssembler a;
        a.replace(whole(40), 1);
        d.base = 40;
        d.check = check_of(whole(40));
        std::string why = a.apply(std::move(d), 41, 0, 1);
        CHECK(a.state() == nullptr);
        return why;
    };
    SnapshotDelta gone;
    gone.removed_jobs = {9};
    STRCMP_EQUAL("jobs_removed names job 9, which the state does not hold", refused(gone).c_str());
    SnapshotDelta priority;
    priority.priorities = {{9, 1}};
    STRCMP_EQUAL("priorities names job 9, which the state does not hold", refused(priority).c_str());
    SnapshotDelta node_gone;
    node_gone.removed_nodes = {"n9"};
    STRCMP_EQUAL("nodes_removed names node n9, which the state does not hold", refused(node_gone).c_str());
    SnapshotDelta twice;
    twice.removed_jobs = {1, 1};
    STRCMP_EQUAL("jobs_removed names job 1, which the state does not hold", refused(twice).c_str());
}

TEST(SnapshotAssembler, AFailedCheckDropsTheState)
{
    SnapshotAssembler a;
    a.replace(whole(40), 1);
    SnapshotDelta d;
    d.base = 40;
    d.check = check_of(whole(40));
    d.priorities = {{1, 11}}; // the plugin's check says priority 10 stayed
    const std::string why = a.apply(std::move(d), 41, 0, 1);
    CHECK_TEXT(why.rfind("check.job_sum is ", 0) == 0, why.c_str());
    CHECK(a.state() == nullptr);

    a.replace(whole(40), 1);
    SnapshotDelta lost;
    lost.base = 40;
    lost.check = check_of(whole(40));
    lost.check.nodes = 3;
    STRCMP_EQUAL("check.nodes is 3, the state after the delta has 2", a.apply(std::move(lost), 41, 0, 1).c_str());
}

TEST(SnapshotAssembler, ADeltaFromANewerConnectionDropsTheStateAndOneFromAnOlderIsIgnored)
{
    SnapshotAssembler a;
    a.replace(whole(40), 2);
    SnapshotDelta late;
    late.base = 40;
    late.check = check_of(whole(40));
    STRCMP_EQUAL("from an older connection than the state's, which it leaves alone",
                 a.apply(std::move(late), 41, 0, 1).c_str());
    CHECK(a.state() != nullptr);

    SnapshotDelta d;
    d.base = 40;
    d.check = check_of(whole(40));
    STRCMP_EQUAL("the state was built on an older plugin connection", a.apply(std::move(d), 41, 0, 3).c_str());
    CHECK(a.state() == nullptr);
}

TEST(SnapshotAssembler, TheJobSumFollowsDocProtocol)
{
    // One pending job, id 1, priority 0, one task: FNV-1a's steps over whole values.
    std::uint64_t h = 14695981039346656037ull;
    for (std::uint64_t v : {1, 0, 1, 1})
        h = (h ^ v) * 1099511628211ull;
    const std::uint64_t low53 = (std::uint64_t(1) << 53) - 1;
    CHECK_EQUAL(h & low53, job_fingerprint_sum({job(1, 0)}));
    CHECK(job_fingerprint_sum({job(1, 0)}) != job_fingerprint_sum({job(1, 0, JobState::Running)}));
    CHECK_EQUAL(0u, job_fingerprint_sum({}));
}

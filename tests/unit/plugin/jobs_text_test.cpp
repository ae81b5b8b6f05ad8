#include "../../../plugin/jobs_text.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "hostlist_stand_ins.hpp"

#include <CppUTest/TestHarness.h>

using burst::test::expand_commas;
using burst::test::expand_fails;

namespace {
// One exporter pass: a fresh copy of slurmctld's jobs.
struct Copy {
    snapshot s{};
    int oom = 0;
    Copy() = default;
    Copy(const Copy&) = delete;
    Copy& operator=(const Copy&) = delete;
    ~Copy() { snapshot_clear(&s); }
    char* dup(const char* text) { return snapshot_strdup(&s, text, &oom); }
    snap_job* add(const snap_job& from)
    {
        snap_job* j = snapshot_add_job(&s);
        *j = from;
        for (char** f : {&j->user, &j->account, &j->partitions, &j->qos, &j->name,
                         &j->admin_comment, &j->gres, &j->features, &j->dependency,
                         &j->node_list})
            *f = dup(*f);
        return j;
    }
};

snap_job base_job(uint32_t id)
{
    snap_job j{};
    j.id = id;
    j.array_tasks = 1;
    j.array_task_id = -1;
    j.user = const_cast<char*>("alice");
    j.account = const_cast<char*>("physics");
    j.partitions = const_cast<char*>("local");
    j.qos = const_cast<char*>("normal");
    j.name = const_cast<char*>("stage-1");
    j.admin_comment = const_cast<char*>("burst:allow threads:auto category:3aa18d7a4625f7d9");
    j.state = "PENDING";
    j.reason = "Priority";
    j.priority = 1000 + id;
    j.submit_time = 1700000000 + id;
    j.eligible_time = 1700000000 + id;
    j.time_limit = 3600;
    j.nodes_req = 1;
    j.cpus = 2;
    j.cpus_per_task = 1;
    j.mem_mb = 1000;
    return j;
}

std::string fresh_text(const snapshot& s)
{
    size_t len = 0;
    char* t = snapshot_json_jobs(&s, expand_commas, &len);
    CHECK(t != nullptr);
    std::string out(t, len);
    std::free(t);
    return out;
}

// Builds next from prev (written from prev_copy) and checks it against a
// fresh serialization of copy.
jobs_text_stats build_and_check(jobs_text& next, const Copy& copy, const jobs_text* prev,
                                const Copy* prev_copy)
{
    jobs_text_stats st{};
    LONGS_EQUAL(0, jobs_text_build(&next, &copy.s, prev, prev_copy ? &prev_copy->s : nullptr,
                                   expand_commas, &st));
    STRCMP_EQUAL(fresh_text(copy.s).c_str(), next.text.buf);
    LONGS_EQUAL(copy.s.njobs, next.nspans);
    LONGS_EQUAL(copy.s.njobs, st.reused + st.serialized);
    return st;
}

// Every field the text shows, changed one at a time.
using Change = void (*)(snap_job&, Copy&);
const Change field_changes[] = {
    [](snap_job& j, Copy&) { j.array_tasks = 7; },
    [](snap_job& j, Copy&) { j.array_job_id = 99; },
    [](snap_job& j, Copy&) { j.array_job_id = 99; j.array_task_id = 3; },
    [](snap_job& j, Copy& c) { j.user = c.dup("bob"); },
    [](snap_job& j, Copy& c) { j.account = c.dup("chemistry"); },
    [](snap_job& j, Copy& c) { j.partitions = c.dup("local,cloud"); },
    [](snap_job& j, Copy& c) { j.qos = c.dup("high"); },
    [](snap_job& j, Copy& c) { j.name = c.dup("stage-2"); },
    [](snap_job& j, Copy& c) { j.admin_comment = c.dup("burst:never threads:4 category:3aa18d7a4625f7d9"); },
    [](snap_job& j, Copy& c) { j.gres = c.dup("gpu:1"); },
    [](snap_job& j, Copy& c) { j.features = c.dup("cloud"); },
    [](snap_job& j, Copy& c) { j.dependency = c.dup("afterok:12(unfulfilled)"); },
    [](snap_job& j, Copy& c) { j.node_list = c.dup("n1,n2"); },
    [](snap_job& j, Copy&) { j.reason = "Resources"; },
    [](snap_job& j, Copy&) { j.state = "RUNNING"; },
    [](snap_job& j, Copy&) { j.submit_time += 1; },
    [](snap_job& j, Copy&) { j.eligible_time += 1; },
    [](snap_job& j, Copy&) { j.start_time = 1700001234; },
    [](snap_job& j, Copy&) { j.time_limit = 60; },
    [](snap_job& j, Copy&) { j.nodes_req = 2; },
    [](snap_job& j, Copy&) { j.cpus = 8; },
    [](snap_job& j, Copy&) { j.cpus_per_task = 4; },
    [](snap_job& j, Copy&) { j.mem_mb = 4000; },
    [](snap_job& j, Copy&) { j.node_cpus = 16; },
    [](snap_job& j, Copy&) { j.node_mem_mb = 2000; },
    [](snap_job& j, Copy& c) { j.name = c.dup(""); },  // "" is not NULL to the compare
    [](snap_job& j, Copy&) { j.name = nullptr; },
};
const size_t nfield_changes = sizeof(field_changes) / sizeof(field_changes[0]);
}  // namespace

TEST_GROUP(JobsText)
{
    jobs_text a{}, b{};
    void teardown() override
    {
        jobs_text_clear(&a);
        jobs_text_clear(&b);
    }
};

TEST(JobsText, FirstBuildSerializesEveryJob)
{
    Copy c;
    for (uint32_t id = 1; id <= 3; id++)
        c.add(base_job(id));
    jobs_text_stats st = build_and_check(a, c, nullptr, nullptr);
    LONGS_EQUAL(3, st.serialized);
}

TEST(JobsText, EmptyCopyGivesAnEmptyArray)
{
    Copy c;
    build_and_check(a, c, nullptr, nullptr);
    STRCMP_EQUAL("[]", a.text.buf);
}

// PriorityCalcPeriod rewrites every pending job's priority: nothing else
// needs serializing.
TEST(JobsText, NewPrioritiesAreWrittenIntoKeptTexts)
{
    Copy c1, c2;
    for (uint32_t id = 1; id <= 50; id++) {
        c1.add(base_job(id));
        snap_job* j = c2.add(base_job(id));
        j->priority = id * 100000u;  // other digit counts too
    }
    build_and_check(a, c1, nullptr, nullptr);
    jobs_text_stats st = build_and_check(b, c2, &a, &c1);
    LONGS_EQUAL(50, st.reused);
    LONGS_EQUAL(0, st.serialized);
}

// A field the compare missed would keep the old text and fail here.
TEST(JobsText, EveryShownFieldChangeIsSerializedAgain)
{
    for (Change change : field_changes) {
        Copy c1, c2;
        for (uint32_t id = 1; id <= 3; id++)
            c1.add(base_job(id));
        c2.add(base_job(1));
        change(*c2.add(base_job(2)), c2);
        c2.add(base_job(3));
        jobs_text x{}, y{};
        build_and_check(x, c1, nullptr, nullptr);
        jobs_text_stats st = build_and_check(y, c2, &x, &c1);
        LONGS_EQUAL(2, st.reused);
        LONGS_EQUAL(1, st.serialized);
        CHECK_FALSE(jobs_text_same_but_priority(&c1.s.jobs[1], &c2.s.jobs[1]));
        jobs_text_clear(&x);
        jobs_text_clear(&y);
    }
}

// Jobs come and go and move; random fields change; the array is always the
// fresh one, and unchanged jobs are found wherever they moved.
TEST(JobsText, ChurnAlwaysGivesTheFreshText)
{
    std::mt19937 rng(42);
    auto prev = std::make_unique<Copy>();
    std::vector<snap_job> jobs;
    uint32_t next_id = 1;
    for (; next_id <= 200; next_id++)
        jobs.push_back(base_job(next_id));
    for (auto& j : jobs)
        prev->add(j);
    jobs_text* kept = &a;
    jobs_text* spare = &b;
    build_and_check(*kept, *prev, nullptr, nullptr);
    size_t reused_total = 0;
    for (int round = 0; round < 40; round++) {
        auto cur = std::make_unique<Copy>();
        size_t expect_changed = 0;
        for (size_t i = 0; i < prev->s.njobs; i++) {
            if (rng() % 20 == 0)
                continue;  // ended
            snap_job* j = cur->add(prev->s.jobs[i]);
            if (rng() % 3 == 0)
                j->priority = rng() % 100000;
            if (rng() % 10 == 0) {
                field_changes[rng() % nfield_changes](*j, *cur);
                expect_changed++;
            }
        }
        // A few moved to the end (a requeued job is appended again).
        for (int k = 0; k < 3 && cur->s.njobs > 1; k++) {
            size_t from = rng() % cur->s.njobs;
            snap_job moved = cur->s.jobs[from];
            std::memmove(&cur->s.jobs[from], &cur->s.jobs[from + 1],
                         (cur->s.njobs - from - 1) * sizeof(snap_job));
            cur->s.jobs[cur->s.njobs - 1] = moved;
        }
        for (int k = 0; k < 10; k++)
            cur->add(base_job(next_id++));
        jobs_text_stats st = build_and_check(*spare, *cur, kept, prev.get());
        CHECK(st.serialized <= expect_changed + 10);
        reused_total += st.reused;
        std::swap(kept, spare);
        prev = std::move(cur);
    }
    CHECK(reused_total > 40 * 150);
}

// A text that does not describe the copy it is said to come from (a failed
// pass) is not used.
TEST(JobsText, TextOfAnotherCopyIsNotUsed)
{
    Copy c1, c2;
    c1.add(base_job(1));
    c2.add(base_job(1));
    c2.add(base_job(2));
    build_and_check(a, c1, nullptr, nullptr);
    jobs_text_stats st = build_and_check(b, c1, &a, &c2);
    LONGS_EQUAL(1, st.serialized);
}

TEST(JobsText, FailedHostlistExpansionFailsTheBuild)
{
    Copy c;
    snap_job* j = c.add(base_job(1));
    j->node_list = c.dup("n1");
    jobs_text_stats st{};
    LONGS_EQUAL(-1, jobs_text_build(&a, &c.s, nullptr, nullptr, expand_fails, &st));
    LONGS_EQUAL(0, a.nspans);
}

#include "../../../plugin/snapshot_json.h"

#include <jansson.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "hostlist_stand_ins.hpp"

#include <CppUTest/TestHarness.h>

using burst::test::expand_commas;
using burst::test::expand_fails;

namespace {
json_t* load(char* line, size_t len)
{
    CHECK(line != nullptr);
    CHECK(len > 0 && line[len - 1] == '\n');
    CHECK(std::memchr(line, '\n', len - 1) == nullptr);
    json_t* msg = json_loadb(line, len, 0, nullptr);
    std::free(line);
    CHECK(msg != nullptr);
    return msg;
}

std::string str(json_t* o, const char* key)
{
    json_t* v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : "<not a string>";
}

long long num(json_t* o, const char* key)
{
    json_t* v = json_object_get(o, key);
    return json_is_integer(v) ? json_integer_value(v) : -999;
}
}  // namespace

TEST_GROUP(SnapshotJson)
{
    snapshot s{};
    int oom = 0;
    void teardown() override
    {
        CHECK_EQUAL(0, oom);
        snapshot_clear(&s);
    }
    char* dup(const char* text) { return snapshot_strdup(&s, text, &oom); }

    // The job name as burstd would read it back.
    std::string name_round_trip(const char* name)
    {
        snap_job* j = snapshot_add_job(&s);
        j->state = "PENDING";
        j->name = dup(name);
        size_t len;
        char* line = snapshot_json_snapshot(&s, "c1", 2, 5, expand_commas, &len);
        json_t* m = load(line, len);
        std::string out = str(json_array_get(json_object_get(m, "jobs"), 0), "name");
        json_decref(m);
        return out;
    }
};

TEST(SnapshotJson, HelloCarriesTheEnvelope)
{
    size_t len;
    char* line = snapshot_json_hello("c1", 1, 1700000000, "0.1.0", "22.05.8", &len);
    json_t* m = load(line, len);
    LONGS_EQUAL(1, num(m, "v"));
    STRCMP_EQUAL("hello", str(m, "type").c_str());
    STRCMP_EQUAL("c1", str(m, "cluster").c_str());
    LONGS_EQUAL(1, num(m, "seq"));
    LONGS_EQUAL(1700000000, num(m, "time"));
    STRCMP_EQUAL("22.05.8", str(m, "slurm_version").c_str());
    STRCMP_EQUAL("0.1.0", str(m, "plugin_version").c_str());
    json_decref(m);
}

TEST(SnapshotJson, EmptySnapshotHasAllFourArrays)
{
    size_t len;
    char* line = snapshot_json_snapshot(&s, "c1", 2, 5, expand_commas, &len);
    json_t* m = load(line, len);
    for (const char* k : {"jobs", "nodes", "partitions", "shares"}) {
        CHECK(json_is_array(json_object_get(m, k)));
        LONGS_EQUAL(0, json_array_size(json_object_get(m, k)));
    }
    json_decref(m);
}

TEST(SnapshotJson, JobFieldsFollowTheProtocol)
{
    snap_job* j = snapshot_add_job(&s);
    j->id = 42;
    j->array_tasks = 7;
    j->array_job_id = 42;
    j->array_task_id = -1;
    j->user = dup("alice");
    j->account = dup("physics");
    j->partitions = dup("local,cloud");
    j->admin_comment = dup("burst:prefer threads:auto size:2.5 category:00000000000000aa why:budget note");
    j->node_list = dup("n1,n2");
    j->state = "PENDING";
    j->reason = "Priority";
    j->submit_time = 100;
    j->time_limit = 3600;
    j->cpus = 8;
    j->cpus_per_task = 0;
    size_t len;
    char* line = snapshot_json_snapshot(&s, "c1", 2, 5, expand_commas, &len);
    json_t* m = load(line, len);
    json_t* job = json_array_get(json_object_get(m, "jobs"), 0);
    LONGS_EQUAL(42, num(job, "id"));
    LONGS_EQUAL(7, num(job, "array_tasks"));
    LONGS_EQUAL(42, num(job, "array_job_id"));
    CHECK(json_object_get(job, "array_task_id") == nullptr);
    STRCMP_EQUAL("alice", str(job, "user").c_str());
    STRCMP_EQUAL("physics", str(job, "account").c_str());
    LONGS_EQUAL(2, json_array_size(json_object_get(job, "partitions")));
    STRCMP_EQUAL("cloud", json_string_value(json_array_get(json_object_get(job, "partitions"), 1)));
    STRCMP_EQUAL("prefer", str(job, "burst").c_str());
    STRCMP_EQUAL("auto", str(job, "threads").c_str());
    STRCMP_EQUAL("00000000000000aa", str(job, "category").c_str());
    STRCMP_EQUAL("budget", str(job, "why").c_str());
    DOUBLES_EQUAL(2.5, json_number_value(json_object_get(job, "size")), 0);
    STRCMP_EQUAL("PENDING", str(job, "state").c_str());
    STRCMP_EQUAL("", str(job, "qos").c_str());
    LONGS_EQUAL(3600, num(job, "time_limit"));
    LONGS_EQUAL(8, num(job, "cpus"));
    LONGS_EQUAL(1, num(job, "cpus_per_task"));
    LONGS_EQUAL(1, num(job, "node_cpus"));
    LONGS_EQUAL(2, json_array_size(json_object_get(job, "node_list")));
    json_decref(m);
}

TEST(SnapshotJson, UntaggedJobDefaultsToAllowWithoutCategory)
{
    snap_job* j = snapshot_add_job(&s);
    j->id = 1;
    j->state = "RUNNING";
    size_t len;
    char* line = snapshot_json_snapshot(&s, "c1", 2, 5, expand_commas, &len);
    json_t* m = load(line, len);
    json_t* job = json_array_get(json_object_get(m, "jobs"), 0);
    STRCMP_EQUAL("allow", str(job, "burst").c_str());
    STRCMP_EQUAL("", str(job, "threads").c_str());
    STRCMP_EQUAL("", str(job, "category").c_str());
    CHECK(json_object_get(job, "why") == nullptr);
    CHECK(json_object_get(job, "size") == nullptr);
    LONGS_EQUAL(1, num(job, "array_tasks"));
    json_decref(m);
}

TEST(SnapshotJson, NodesPartitionsAndShares)
{
    snap_node* n = snapshot_add_node(&s);
    n->name = dup("cloud1");
    n->state = "IDLE";
    n->flags = SNAP_NODE_CLOUD | SNAP_NODE_POWERED_DOWN;
    n->cpus = 4;
    n->features = dup("cloud,big");
    n->gres = dup("gpu:a100:2(S:0)");
    n->partitions = dup("cloud");
    snap_partition* p = snapshot_add_partition(&s);
    p->name = dup("cloud");
    p->nodes = dup("cloud1,cloud2");
    p->state = "UP";
    p->is_default = 1;
    snap_share* sh = snapshot_add_share(&s);
    sh->account = dup("physics");
    sh->parent = dup("root");
    sh->fs_factor = 0.5;
    snap_share* parent_user = snapshot_add_share(&s);
    parent_user->account = dup("physics");
    parent_user->user = dup("ann");
    parent_user->parent = dup("physics");
    parent_user->fairshare_parent = 1;
    size_t len;
    char* line = snapshot_json_snapshot(&s, "c1", 2, 5, expand_commas, &len);
    json_t* m = load(line, len);
    json_t* node = json_array_get(json_object_get(m, "nodes"), 0);
    json_t* flags = json_object_get(node, "flags");
    LONGS_EQUAL(2, json_array_size(flags));
    STRCMP_EQUAL("CLOUD", json_string_value(json_array_get(flags, 0)));
    STRCMP_EQUAL("POWERED_DOWN", json_string_value(json_array_get(flags, 1)));
    LONGS_EQUAL(0, num(node, "alloc_cpus"));
    LONGS_EQUAL(2, json_array_size(json_object_get(node, "features")));
    STRCMP_EQUAL("gpu:a100:2(S:0)", str(node, "gres").c_str());
    json_t* part = json_array_get(json_object_get(m, "partitions"), 0);
    LONGS_EQUAL(2, json_array_size(json_object_get(part, "nodes")));
    CHECK(json_is_true(json_object_get(part, "default")));
    json_t* share = json_array_get(json_object_get(m, "shares"), 0);
    STRCMP_EQUAL("", str(share, "user").c_str());
    DOUBLES_EQUAL(0.5, json_real_value(json_object_get(share, "fs_factor")), 1e-12);
    CHECK(json_is_false(json_object_get(share, "fairshare_parent")));
    CHECK(json_is_true(json_object_get(json_array_get(json_object_get(m, "shares"), 1), "fairshare_parent")));
    json_decref(m);
}

TEST(SnapshotJson, JobEnd)
{
    snap_job_end* e = snapshot_add_job_end(&s);
    e->id = 9;
    e->admin_comment = dup("burst:allow size:7 category:0000000000000bbb");
    e->account = dup("physics");
    e->node_list = dup("n1");
    e->state = "COMPLETED";
    e->cpus = 2;
    e->cpus_per_task = 2;
    e->elapsed = 61;
    e->end_time = 1000;
    e->eligible_time = 900;
    e->start_time = 939;
    size_t len;
    char* line = snapshot_json_job_end(e, "c1", 4, 1001, expand_commas, &len);
    json_t* m = load(line, len);
    STRCMP_EQUAL("job_end", str(m, "type").c_str());
    LONGS_EQUAL(9, num(m, "id"));
    STRCMP_EQUAL("0000000000000bbb", str(m, "category").c_str());
    LONGS_EQUAL(61, num(m, "elapsed"));
    LONGS_EQUAL(2, num(m, "cpus_per_task"));
    DOUBLES_EQUAL(7, json_number_value(json_object_get(m, "size")), 0);
    LONGS_EQUAL(0, num(m, "exit_code"));
    LONGS_EQUAL(900, num(m, "eligible_time"));
    LONGS_EQUAL(939, num(m, "start_time"));
    STRCMP_EQUAL("n1", json_string_value(json_array_get(json_object_get(m, "node_list"), 0)));
    json_decref(m);
}

TEST(SnapshotJson, QuotesBackslashesAndControlCharactersSurvive)
{
    const char name[] = "a\"b\\c/\n\r\t\b\f\x01\x1f\x7f end";
    STRCMP_EQUAL(name, name_round_trip(name).c_str());
}

TEST(SnapshotJson, ValidUtf8IsKeptAsIs)
{
    const char name[] = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x9a\x80";  // é € rocket
    STRCMP_EQUAL(name, name_round_trip(name).c_str());
}

TEST(SnapshotJson, InvalidUtf8BecomesReplacementCharacters)
{
    // Latin-1 é, a lone continuation byte, an overlong '/', a surrogate,
    // and a sequence cut off by the end of the string.
    STRCMP_EQUAL("caf\xef\xbf\xbd|\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd|"
                 "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd",
                 name_round_trip("caf\xe9|\x80|\xc0\xaf|\xed\xa0\x80|\xe2\x82").c_str());
}

TEST(SnapshotJson, SharesAreRealsEvenWhenWhole)
{
    snap_share* sh = snapshot_add_share(&s);
    sh->account = dup("physics");
    sh->raw_shares = 10;
    sh->raw_usage = 1e300 * 1e300;  // infinity has no JSON form
    sh->norm_usage = 0.1;
    size_t len;
    char* line = snapshot_json_snapshot(&s, "c1", 2, 5, expand_commas, &len);
    json_t* m = load(line, len);
    json_t* share = json_array_get(json_object_get(m, "shares"), 0);
    CHECK(json_is_real(json_object_get(share, "raw_shares")));
    DOUBLES_EQUAL(10, json_real_value(json_object_get(share, "raw_shares")), 0);
    DOUBLES_EQUAL(0, json_real_value(json_object_get(share, "raw_usage")), 0);
    DOUBLES_EQUAL(0.1, json_real_value(json_object_get(share, "norm_usage")), 0);
    json_decref(m);
}

TEST(SnapshotJson, ExtremeIntegersAreExact)
{
    snap_job* j = snapshot_add_job(&s);
    j->state = "PENDING";
    j->id = 4294967295u;
    j->submit_time = -5;
    j->mem_mb = 1ull << 52;
    j->node_mem_mb = 1ull << 51;
    j->node_cpus = 4294967295u;
    size_t len;
    char* line = snapshot_json_snapshot(&s, "c1", 2, 5, expand_commas, &len);
    json_t* m = load(line, len);
    json_t* job = json_array_get(json_object_get(m, "jobs"), 0);
    LONGS_EQUAL(4294967295ll, num(job, "id"));
    LONGS_EQUAL(-5, num(job, "submit_time"));
    CHECK_EQUAL(1ll << 52, num(job, "mem_mb"));
    CHECK_EQUAL(1ll << 51, num(job, "node_mem_mb"));
    LONGS_EQUAL(4294967295ll, num(job, "node_cpus"));
    json_decref(m);
}

TEST(SnapshotJson, ManyJobsMakeOneParsableLine)
{
    for (int i = 0; i < 1000; i++) {
        snap_job* j = snapshot_add_job(&s);
        j->id = i + 1;
        j->state = "PENDING";
        j->name = dup("a fairly ordinary job name");
        j->partitions = dup("local,cloud");
    }
    size_t len;
    char* line = snapshot_json_snapshot(&s, "c1", 2, 5, expand_commas, &len);
    json_t* m = load(line, len);
    json_t* jobs = json_object_get(m, "jobs");
    LONGS_EQUAL(1000, json_array_size(jobs));
    LONGS_EQUAL(1000, num(json_array_get(jobs, 999), "id"));
    json_decref(m);
}

TEST(SnapshotJson, FailedHostlistExpansionFailsTheLine)
{
    snap_job* j = snapshot_add_job(&s);
    j->state = "RUNNING";
    j->node_list = dup("n[1-2]");
    size_t len;
    POINTERS_EQUAL(nullptr, snapshot_json_snapshot(&s, "c1", 2, 5, expand_fails, &len));
}

// The exporter keeps the jobs array while slurmctld reports no job change
// and wraps it in later snapshots: the line must be the one a fresh
// serialization of the whole state gives.
TEST(SnapshotJson, KeptJobsArrayGivesTheSameLineAsAFreshSerialization)
{
    for (int i = 0; i < 3; i++) {
        snap_job* j = snapshot_add_job(&s);
        j->id = 10 + i;
        j->state = i ? "PENDING" : "RUNNING";
        j->name = dup("na\"me\xff");
        j->node_list = i ? nullptr : dup("n1,n2");
        j->admin_comment = dup("burst:prefer threads:auto category:3aa18d7a4625f7d9");
    }
    snap_node* n = snapshot_add_node(&s);
    n->name = dup("n1");
    n->state = "MIXED";
    n->alloc_cpus = 2;
    size_t jobs_len;
    char* jobs = snapshot_json_jobs(&s, expand_commas, &jobs_len);
    CHECK(jobs != nullptr);
    LONGS_EQUAL(std::strlen(jobs), jobs_len);
    CHECK_EQUAL('[', jobs[0]);
    CHECK_EQUAL(']', jobs[jobs_len - 1]);

    // Later pass: nodes changed, jobs not copied again.
    n->alloc_cpus = 4;
    n->state = "ALLOCATED";
    size_t fresh_len, kept_len;
    char* fresh = snapshot_json_snapshot(&s, "c1", 7, 99, expand_commas, &fresh_len);
    snapshot later{};
    snap_node* ln = snapshot_add_node(&later);
    *ln = *n;
    char* kept = snapshot_json_snapshot_with_jobs(&later, jobs, jobs_len, "c1", 7, 99,
                                                  expand_commas, &kept_len);
    snapshot_clear(&later);
    CHECK(fresh != nullptr && kept != nullptr);
    LONGS_EQUAL(fresh_len, kept_len);
    CHECK(std::memcmp(fresh, kept, fresh_len) == 0);
    std::free(fresh);
    std::free(jobs);
    json_t* m = load(kept, kept_len);
    LONGS_EQUAL(3, json_array_size(json_object_get(m, "jobs")));
    LONGS_EQUAL(4, num(json_array_get(json_object_get(m, "nodes"), 0), "alloc_cpus"));
    json_decref(m);
}

TEST(SnapshotJson, EmptyJobsArrayIsValid)
{
    size_t jobs_len, len;
    char* jobs = snapshot_json_jobs(&s, expand_commas, &jobs_len);
    STRCMP_EQUAL("[]", jobs);
    char* line = snapshot_json_snapshot_with_jobs(&s, jobs, jobs_len, "c1", 1, 2, expand_commas, &len);
    json_t* m = load(line, len);
    std::free(jobs);
    LONGS_EQUAL(0, json_array_size(json_object_get(m, "jobs")));
    json_decref(m);
}

TEST(SnapshotJson, FailedHostlistExpansionFailsTheJobsArray)
{
    snap_job* j = snapshot_add_job(&s);
    j->state = "RUNNING";
    j->node_list = dup("n[1-2]");
    size_t len;
    POINTERS_EQUAL(nullptr, snapshot_json_jobs(&s, expand_fails, &len));
}

TEST_GROUP(SnapshotArena)
{
    snapshot s{};
    int oom = 0;
    void teardown() override { snapshot_clear(&s); }
};

TEST(SnapshotArena, StringsOutliveLaterAllocationsAcrossChunks)
{
    std::string big(100000, 'x');
    char* first = snapshot_strdup(&s, "first", &oom);
    char* large = snapshot_strdup(&s, big.c_str(), &oom);  // larger than a chunk
    char* last = snapshot_strdup(&s, "last", &oom);
    CHECK_EQUAL(0, oom);
    STRCMP_EQUAL("first", first);
    CHECK(big == large);
    STRCMP_EQUAL("last", last);
    POINTERS_EQUAL(nullptr, snapshot_strdup(&s, nullptr, &oom));
    CHECK_EQUAL(0, oom);
}

TEST(SnapshotArena, ResetKeepsOneChunkThatFitsTheLastPass)
{
    std::string big(50000, 'y');
    for (int i = 0; i < 10; i++)
        snapshot_strdup(&s, big.c_str(), &oom);
    snapshot_add_job(&s);
    snapshot_reset(&s);
    LONGS_EQUAL(0, s.njobs);
    CHECK(s.arena != nullptr);
    POINTERS_EQUAL(nullptr, s.arena->next);
    CHECK(s.arena->cap >= 10 * big.size());
    char* first = s.arena->data;
    for (int i = 0; i < 10; i++)
        snapshot_strdup(&s, big.c_str(), &oom);
    POINTERS_EQUAL(nullptr, s.arena->next);  // no new chunk for the same load
    POINTERS_EQUAL(first, s.arena->data);
    CHECK_EQUAL(0, oom);
}

TEST(SnapshotArena, ReserveAvoidsGrowingDuringTheCopy)
{
    CHECK_EQUAL(0, snapshot_reserve_jobs(&s, 5000));
    snap_job* jobs = s.jobs;
    for (int i = 0; i < 5000; i++)
        snapshot_add_job(&s);
    POINTERS_EQUAL(jobs, s.jobs);
}

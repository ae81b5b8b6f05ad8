#include "ingest/message_parser.hpp"

#include "model/cluster_state.hpp"
#include "policy/site/site_view.hpp"

#include <string>
#include <variant>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

const std::string kHeader = R"("v":1,"cluster":"lab","seq":12,"time":1700000000)";

const std::string kJob =
    R"({"id":42,"array_tasks":5,"user":"ann","account":"bio","partitions":["batch","cloud"],)"
    R"("state":"PENDING","priority":100,"submit_time":1699999000,"time_limit":3600,"nodes_req":1,)"
    R"("cpus":8,"cpus_per_task":4,"mem_mb":16000,"category":"bio/align","burst":"prefer",)"
    R"("threads":"auto","why":"budget","reason":"Resources","future_field":{"x":1}})";
const std::string kNode =
    R"({"name":"c1","state":"IDLE","flags":["CLOUD","POWERED_DOWN","SOMETHING_NEW"],"cpus":8,)"
    R"("alloc_cpus":0,"mem_mb":15000,"partitions":["cloud"],"addr":"10.0.0.5"})";
const std::string kPartition = R"({"name":"cloud","nodes":["c1"],"state":"UP","default":false,"max_time":0})";
const std::string kShare = R"({"account":"bio","user":"","raw_shares":10,"norm_shares":0.5,"fs_factor":0.25},)"
                           R"({"account":"bio","user":"ann","parent":"bio","raw_shares":0,"fairshare_parent":true})";

std::string snapshot_with(const std::string& jobs, const std::string& nodes = "[" + kNode + "]")
{
    return R"({"type":"snapshot",)" + kHeader + R"(,"jobs":)" + jobs + R"(,"nodes":)" + nodes +
           R"(,"partitions":[)" + kPartition + R"(],"shares":[)" + kShare + "]}";
}

std::string error_of(const std::string& line)
{
    auto r = parse_message(line);
    CHECK_FALSE_TEXT(r.message.has_value(), line.c_str());
    return r.error;
}

} // namespace

TEST_GROUP(MessageParser){};

TEST(MessageParser, ParsesAFullSnapshot)
{
    auto r = parse_message(snapshot_with("[" + kJob + "]"));
    CHECK_TRUE_TEXT(r.message.has_value(), r.error.c_str());
    STRCMP_EQUAL("snapshot", r.message->type.c_str());
    const Snapshot& s = std::get<Snapshot>(r.message->body);
    STRCMP_EQUAL("lab", s.cluster.c_str());
    LONGS_EQUAL(12, s.seq);
    DOUBLES_EQUAL(1700000000, s.time, 0);
    LONGS_EQUAL(1, s.jobs.size());
    const Job& j = s.jobs[0];
    LONGS_EQUAL(42, j.id);
    LONGS_EQUAL(5, j.array_task_count);
    LONGS_EQUAL(40, j.total_cpus());
    STRCMP_EQUAL("cloud", j.partitions[1].c_str());
    CHECK(j.state == JobState::Pending);
    CHECK(j.burst == BurstOption::Prefer);
    CHECK_TRUE(j.threads.automatic);
    STRCMP_EQUAL("budget", j.why.c_str());
    LONGS_EQUAL(4, j.cpus_per_task);
    LONGS_EQUAL(16000, j.memory_mb);
    DOUBLES_EQUAL(3600, j.time_limit, 0);
    const Node& n = s.nodes[0];
    CHECK_TRUE(n.cloud());
    CHECK_TRUE(n.has(kNodePoweredDown));
    CHECK(n.base == NodeBaseState::Idle);
    STRCMP_EQUAL("10.0.0.5", n.addr.c_str());
    CHECK_TRUE(s.partitions[0].up);
    DOUBLES_EQUAL(0.25, s.shares[0].fairshare_factor, 1e-12);
    CHECK_FALSE(s.shares[0].fairshare_parent);
    CHECK_TRUE(s.shares[1].fairshare_parent);
}

TEST(MessageParser, AppliesDefaultsForOptionalJobFields)
{
    auto r = parse_message(snapshot_with(
        R"([{"id":1,"user":"u","account":"a","partitions":["p"],"state":"RUNNING","submit_time":5,"cpus":2,"threads":"6"}])"));
    CHECK_TRUE_TEXT(r.message.has_value(), r.error.c_str());
    const Job& j = std::get<Snapshot>(r.message->body).jobs[0];
    LONGS_EQUAL(1, j.array_task_count);
    LONGS_EQUAL(1, j.cpus_per_task);
    CHECK(j.needs.empty());
    CHECK(j.burst == BurstOption::Allow);
    CHECK_FALSE(j.threads.automatic);
    LONGS_EQUAL(6, j.threads.count);
    CHECK_TRUE(j.running());
}

// The exporter sends every job's partitions in every snapshot, and burstd
// replaces its whole view with each one: a job that moved (scontrol update
// Partition=, burstd routing it) takes its new partitions, and with them its
// node group, from the snapshot that shows the move.
TEST(MessageParser, AJobsPartitionsAndGroupFollowEachSnapshot)
{
    const std::string before = R"([{"id":7,"user":"u","account":"a","partitions":["batch"],"state":"PENDING",)"
                               R"("submit_time":5,"cpus":2},{"id":8,"user":"u","account":"a","partitions":["batch"],)"
                               R"("state":"PENDING","submit_time":6,"cpus":2}])";
    const std::string after = R"([{"id":7,"user":"u","account":"a","partitions":["batch","cloud"],"state":"PENDING",)"
                              R"("submit_time":5,"cpus":2},{"id":8,"user":"u","account":"a","partitions":["batch"],)"
                              R"("state":"PENDING","submit_time":6,"cpus":2}])";
    ClusterState state;
    NodeGroup cloud;
    cloud.name = "aws";
    cloud.partition = "cloud";
    cloud.nodes = {"c1"};
    state.groups = {cloud};
    std::vector<int> groups;
    for (const auto& jobs : {before, after}) {
        auto r = parse_message(snapshot_with(jobs));
        CHECK_TRUE_TEXT(r.message.has_value(), r.error.c_str());
        state.snapshot = std::get<Snapshot>(r.message->body);
        SiteView v = SiteView::of(state);
        LONGS_EQUAL(2, v.pending.size());
        LONGS_EQUAL(7, v.pending[0]->id);
        groups.push_back(v.pending_group[0]);
        groups.push_back(v.pending_group[1]);
    }
    CHECK(groups == (std::vector<int>{-1, -1, 0, -1}));
    const auto& jobs = state.snapshot.jobs;
    CHECK(jobs[0].partitions == PartitionSet({"batch", "cloud"}));
    CHECK(jobs[1].partitions == PartitionSet({"batch"}));
}

TEST(MessageParser, ParsesHelloAndJobEnd)
{
    auto h = parse_message(R"({"type":"hello",)" + kHeader + R"(,"plugin_version":"0.1.0","slurm_version":"22.05.8"})");
    CHECK_TRUE_TEXT(h.message.has_value(), h.error.c_str());
    STRCMP_EQUAL("22.05.8", std::get<Hello>(h.message->body).slurm_version.c_str());

    auto e = parse_message(R"({"type":"job_end",)" + kHeader +
                           R"(,"id":7,"category":"c","cpus":4,"elapsed":120,"exit_code":-1,"node_list":["c1"],)"
                           R"("eligible_time":1000,"start_time":1030,"cpus_per_task":2,"state":"TIMEOUT"})");
    CHECK_TRUE_TEXT(e.message.has_value(), e.error.c_str());
    const JobEnd& end = std::get<JobEnd>(e.message->body);
    LONGS_EQUAL(7, end.id);
    DOUBLES_EQUAL(120, end.elapsed, 0);
    LONGS_EQUAL(-1, end.exit_code);
    DOUBLES_EQUAL(1000, end.eligible_time, 0);
    DOUBLES_EQUAL(1030, end.start_time, 0);
    LONGS_EQUAL(2, end.cpus_per_task);
    STRCMP_EQUAL("TIMEOUT", end.state.c_str());
    CHECK(!end.completed());
    STRCMP_EQUAL("c1", end.nodes[0].c_str());
}

TEST(MessageParser, AHelloSaysWhetherThePluginSendsDeltas)
{
    auto hello = [](const std::string& versions) {
        auto h = parse_message(R"({"type":"hello",)" + kHeader + versions + "}");
        CHECK_TRUE_TEXT(h.message.has_value(), h.error.c_str());
        return std::get<Hello>(h.message->body).sends_deltas;
    };
    CHECK_FALSE(hello(""));
    CHECK_FALSE(hello(R"(,"versions":[1])"));
    CHECK_TRUE(hello(R"(,"versions":[1,2,3])"));
    STRCMP_EQUAL("hello seq 12: versions[1]: expected integer",
                 error_of(R"({"type":"hello",)" + kHeader + R"(,"versions":[1,"2"]})").c_str());
}

TEST(MessageParser, ParsesADelta)
{
    auto r = parse_message(R"({"v":2,"type":"delta","cluster":"lab","seq":13,"time":1700000005,"base":12,"jobs":[)" +
                           kJob + R"(],"priorities":[[7,900],[8,0]],"jobs_removed":[3,4],"nodes":[)" + kNode +
                           R"(],"nodes_removed":["c9"],"partitions_removed":["old"],"shares":[)" + kShare + R"(],)"
                           R"("check":{"jobs":5,"nodes":2,"partitions":1,"shares":3,"job_sum":123456789}})");
    CHECK_TRUE_TEXT(r.message.has_value(), r.error.c_str());
    const auto& d = std::get<SnapshotDelta>(r.message->body);
    LONGS_EQUAL(12, d.base);
    LONGS_EQUAL(42, d.jobs.at(0).id);
    CHECK((d.priorities == std::vector<std::pair<JobId, std::uint32_t>>{{7, 900}, {8, 0}}));
    CHECK((d.removed_jobs == std::vector<JobId>{3, 4}));
    STRCMP_EQUAL("c1", d.nodes.at(0).name.c_str());
    STRCMP_EQUAL("c9", d.removed_nodes.at(0).c_str());
    CHECK(d.partitions.empty());
    STRCMP_EQUAL("old", d.removed_partitions.at(0).c_str());
    LONGS_EQUAL(2, d.shares->size());
    LONGS_EQUAL(5, d.check.jobs);
    LONGS_EQUAL(123456789, d.check.job_sum);

    auto empty = parse_message(R"({"v":2,"type":"delta","cluster":"lab","seq":14,"time":1,"base":13,)"
                               R"("check":{"jobs":0,"nodes":0,"partitions":0,"shares":0,"job_sum":0}})");
    CHECK_TRUE_TEXT(empty.message.has_value(), empty.error.c_str());
    CHECK_FALSE(std::get<SnapshotDelta>(empty.message->body).shares.has_value());
}

TEST(MessageParser, NamesWhatIsWrongInADelta)
{
    auto delta = [](const std::string& fields) {
        return error_of(R"({"v":2,"type":"delta","cluster":"lab","seq":13,"time":1,)" + fields + "}");
    };
    const std::string check = R"("check":{"jobs":0,"nodes":0,"partitions":0,"shares":0,"job_sum":0})";
    STRCMP_EQUAL("delta seq 13: base: required field missing", delta(check).c_str());
    STRCMP_EQUAL("delta seq 13: check: required field missing", delta(R"("base":12)").c_str());
    STRCMP_EQUAL("delta seq 13: check.job_sum: required field missing",
                 delta(R"("base":12,"check":{"jobs":0,"nodes":0,"partitions":0,"shares":0})").c_str());
    STRCMP_EQUAL("delta seq 13: priorities[1]: expected an array of two elements",
                 delta(R"("base":12,"priorities":[[1,2],[3]],)" + check).c_str());
    STRCMP_EQUAL("delta seq 13: priorities[0][1]: expected integer in 0..4294967295",
                 delta(R"("base":12,"priorities":[[1,-2]],)" + check).c_str());
    STRCMP_EQUAL("delta seq 13: jobs_removed[0]: expected integer in 0..4294967295",
                 delta(R"("base":12,"jobs_removed":["7"],)" + check).c_str());
    STRCMP_EQUAL("delta seq 13: shares: expected array", delta(R"("base":12,"shares":{},)" + check).c_str());
    STRCMP_EQUAL("delta seq 13: jobs[0].user: required field missing",
                 delta(R"("base":12,"jobs":[{"id":1}],)" + check).c_str());
}

TEST(MessageParser, NamesTheFieldPathOfAWrongType)
{
    std::string jobs = "[" + kJob + "," + kJob + "," + kJob + R"(,{"id":9,"cpus":"many"}])";
    STRCMP_EQUAL("snapshot seq 12: jobs[3].user: required field missing", error_of(snapshot_with(jobs)).c_str());
    std::string bad_cpus = R"([{"id":1,"user":"u","account":"a","partitions":["p"],"state":"PENDING","submit_time":5,"cpus":"8"}])";
    STRCMP_EQUAL("snapshot seq 12: jobs[0].cpus: expected integer", error_of(snapshot_with(bad_cpus)).c_str());
}

TEST(MessageParser, RejectsBadValuesInsideArrays)
{
    STRCMP_EQUAL("snapshot seq 12: nodes[0].flags[1]: expected string",
                 error_of(snapshot_with("[]", R"([{"name":"n","state":"IDLE","flags":["CLOUD",3],"cpus":1,"alloc_cpus":0}])")).c_str());
    STRCMP_EQUAL("snapshot seq 12: nodes[0].state: expected one of IDLE, ALLOCATED, MIXED, DOWN, FUTURE, UNKNOWN, got \"idle\"",
                 error_of(snapshot_with("[]", R"([{"name":"n","state":"idle","flags":[],"cpus":1,"alloc_cpus":0}])")).c_str());
    STRCMP_EQUAL("snapshot seq 12: jobs[0]: expected object", error_of(snapshot_with("[5]")).c_str());
    STRCMP_EQUAL("snapshot seq 12: jobs: expected array", error_of(snapshot_with("{}")).c_str());
    STRCMP_EQUAL("snapshot seq 12: jobs[0].cpus: expected integer in 0..4294967295, got -1",
                 error_of(snapshot_with(R"([{"id":1,"user":"u","account":"a","partitions":[],"state":"PENDING","submit_time":1,"cpus":-1}])")).c_str());
    STRCMP_EQUAL("snapshot seq 12: jobs[0].threads: expected \"auto\", a positive integer or \"\", got \"0\"",
                 error_of(snapshot_with(R"([{"id":1,"user":"u","account":"a","partitions":[],"state":"PENDING","submit_time":1,"cpus":1,"threads":"0"}])")).c_str());
}

TEST(MessageParser, TakesOnlySlurmReasonNamesAsPendingReasons)
{
    auto with_reason = [](const std::string& reason) {
        return snapshot_with(R"([{"id":1,"user":"u","account":"a","partitions":[],"state":"PENDING",)"
                             R"("submit_time":1,"cpus":1,"reason":")" +
                             reason + R"("}])");
    };
    auto r = parse_message(with_reason("DependencyNeverSatisfied"));
    CHECK(r.message.has_value());
    CHECK(std::get<Snapshot>(r.message->body).jobs.at(0).awaiting_dependency());
    STRCMP_EQUAL("snapshot seq 12: jobs[0].reason: expected a Slurm reason name (letters, digits and _, at most 64), "
                 "got \"waiting for node c1\"",
                 error_of(with_reason("waiting for node c1")).c_str());
    const std::string unbounded(65, 'R');
    STRCMP_EQUAL(("snapshot seq 12: jobs[0].reason: expected a Slurm reason name (letters, digits and _, at most 64), "
                  "got \"" + unbounded.substr(0, 64) + "...\"").c_str(),
                 error_of(with_reason(unbounded)).c_str());
}

TEST(MessageParser, RequiresEverySnapshotArray)
{
    STRCMP_EQUAL("snapshot seq 3: shares: required field missing",
                 error_of(R"({"v":1,"type":"snapshot","cluster":"c","seq":3,"time":1,"jobs":[],"nodes":[],"partitions":[]})").c_str());
}

TEST(MessageParser, RejectsBadHeaders)
{
    STRCMP_EQUAL("v: unsupported protocol version 3 (this burstd speaks 1 to 2)",
                 error_of(R"({"v":3,"type":"hello","cluster":"c","seq":1,"time":1})").c_str());
    STRCMP_EQUAL("v: delta needs protocol version 2, got 1",
                 error_of(R"({"v":1,"type":"delta","cluster":"c","seq":1,"time":1})").c_str());
    STRCMP_EQUAL("v: required field missing", error_of(R"({"type":"hello"})").c_str());
    STRCMP_EQUAL("v: expected integer", error_of(R"({"v":"1","type":"hello"})").c_str());
    STRCMP_EQUAL("type: expected one of hello, snapshot, delta, job_end, got \"advice\"",
                 error_of(R"({"v":1,"type":"advice","cluster":"c","seq":1,"time":1})").c_str());
    STRCMP_EQUAL("hello: seq: required field missing", error_of(R"({"v":1,"type":"hello","cluster":"c","time":1})").c_str());
    STRCMP_EQUAL("job_end seq 4: time: expected integer",
                 error_of(R"({"v":1,"type":"job_end","cluster":"c","seq":4,"time":1.5})").c_str());
}

TEST(MessageParser, RejectsGarbageTruncatedAndNonObjects)
{
    CHECK_TRUE(error_of("not json").rfind("invalid JSON at byte", 0) == 0);
    CHECK_TRUE(error_of(snapshot_with("[" + kJob + "]").substr(0, 100)).rfind("invalid JSON", 0) == 0);
    CHECK_TRUE(error_of("").rfind("invalid JSON", 0) == 0);
    STRCMP_EQUAL("expected a JSON object", error_of("[1,2]").c_str());
    CHECK_TRUE(error_of(R"({"v":1,"v":1})").find("duplicate") != std::string::npos);
}

TEST(MessageParser, RejectsOversizedLines)
{
    // Zero pages in .bss: the size check must reject it before reading a byte.
    static char huge[kMaxMessageBytes + 1];
    auto r = parse_message(std::string_view(huge, sizeof huge));
    CHECK_FALSE(r.message.has_value());
    STRCMP_EQUAL("message of 67108865 bytes exceeds the limit of 67108864 bytes", r.error.c_str());
}

// node_cpus is what each node must have; older plugins send only the CPUs
// of one task, which stand for it.
TEST(MessageParser, NodeCpusAreWhatEachNodeMustHaveAndDefaultToATasksCpus)
{
    const std::string job = R"({"id":1,"user":"u","account":"a","partitions":["p"],"state":"PENDING",)"
                            R"("submit_time":5,"cpus":16,"cpus_per_task":2)";
    auto r = parse_message(snapshot_with("[" + job + R"(,"node_cpus":16,"node_mem_mb":3200}])"));
    CHECK_TRUE_TEXT(r.message.has_value(), r.error.c_str());
    const Job& limited = std::get<Snapshot>(r.message->body).jobs[0];
    LONGS_EQUAL(16, limited.needs.cpus());
    LONGS_EQUAL(3200, limited.needs.memory_mb());
    LONGS_EQUAL(2, limited.cpus_per_task);

    r = parse_message(snapshot_with("[" + job + "}]"));
    CHECK_TRUE_TEXT(r.message.has_value(), r.error.c_str());
    LONGS_EQUAL(2, std::get<Snapshot>(r.message->body).jobs[0].needs.cpus());

    CHECK(error_of(snapshot_with("[" + job + R"(,"node_cpus":0}])")).find("node_cpus") != std::string::npos);
}

TEST(MessageParser, ReadsSizeHintsOfJobsAndJobEnds)
{
    auto e = parse_message(R"({"type":"job_end",)" + kHeader +
                           R"(,"id":7,"category":"c","cpus":4,"elapsed":120,"exit_code":0,"node_list":[],)"
                           R"("cpus_per_task":2,"size":30.25})");
    CHECK_TRUE_TEXT(e.message.has_value(), e.error.c_str());
    DOUBLES_EQUAL(30.25, std::get<JobEnd>(e.message->body).size, 0);
    std::string sized = R"([{"id":1,"user":"u","account":"a","partitions":["p"],"state":"PENDING","submit_time":5,)"
                        R"("cpus":8,"size":4}])";
    auto s = parse_message(snapshot_with(sized));
    CHECK_TRUE_TEXT(s.message.has_value(), s.error.c_str());
    DOUBLES_EQUAL(4, std::get<Snapshot>(s.message->body).jobs[0].size, 0);
    for (const char* bad : {"0", "-2", "\"4\"", "1e300"}) {
        std::string job = R"([{"id":1,"user":"u","account":"a","partitions":["p"],"state":"PENDING","submit_time":5,)"
                          R"("cpus":8,"size":)" + std::string(bad) + "}]";
        CHECK(error_of(snapshot_with(job)).find("jobs[0].size: expected") != std::string::npos);
    }
}

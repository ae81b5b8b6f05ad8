// The snapshot protocol end to end, plugin to burstd: random job churn goes
// through the plugin's state stream (whole snapshots and deltas), a real
// UNIX socket, burstd's SnapshotServer and SnapshotAssembler, and after
// every message burstd's state is compared with what a whole snapshot of
// the same cluster says — through lost messages, dropped ones and
// reconnects.

#include "../../../plugin/burst_advice.h"
#include "../../../plugin/state_stream.h"

#include "ingest/message_parser.hpp"
#include "ingest/plugin_message.hpp"
#include "ingest/snapshot_assembler.hpp"
#include "ingest/snapshot_server.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/write.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

#include "hostlist_stand_ins.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;
using boost::asio::local::stream_protocol;
using burst::test::expand_commas;

namespace {

// ---- the cluster, as the plugin would copy it from slurmctld ----

struct ModelJob {
    std::uint32_t id = 0, priority = 0, tasks = 1, cpus = 1;
    bool running = false;
    std::string nodes, reason = "Priority", name;
};

struct ModelNode {
    std::string name;
    std::uint32_t alloc = 0;
    bool powered_down = false;
};

struct Cluster {
    std::map<std::uint32_t, ModelJob> jobs;
    std::vector<ModelNode> nodes;
    // account, user, partition: a user's associations in several partitions
    // have the same account and user in the snapshot.
    std::map<std::tuple<std::string, std::string, std::string>, double> usage;
    std::uint32_t next_id = 100, next_node = 1;
    std::uint32_t max_time = 0;
};

// A pass's copy; strings in the snapshot's arena as the exporter's.
void copy(const Cluster& c, snapshot* s, bool with_jobs)
{
    int oom = 0;
    auto dup = [&](const std::string& text) { return snapshot_strdup(s, text.c_str(), &oom); };
    if (with_jobs)
        for (const auto& [id, m] : c.jobs) {
            snap_job* j = snapshot_add_job(s);
            j->id = id;
            j->array_tasks = m.tasks;
            j->array_job_id = m.tasks > 1 ? id : 0;
            j->array_task_id = -1;
            j->user = dup("ann");
            j->account = dup(id % 3 ? "bio" : "chem");
            j->partitions = dup(id % 2 ? "batch" : "batch,cloud");
            j->name = dup(m.name);
            j->state = m.running ? "RUNNING" : "PENDING";
            j->reason = m.running ? "None" : m.reason == "Priority" ? "Priority" : "Resources";
            j->node_list = m.running ? dup(m.nodes) : nullptr;
            j->priority = m.priority;
            j->submit_time = 1700000000 + id;
            j->start_time = m.running ? 1700001000 : 0;
            j->nodes_req = 1;
            j->cpus = m.cpus;
            j->cpus_per_task = 1;
            j->node_cpus = m.cpus;
        }
    std::string batch;
    for (const auto& m : c.nodes) {
        snap_node* n = snapshot_add_node(s);
        n->name = dup(m.name);
        n->partitions = dup("batch");
        n->state = m.alloc ? "ALLOCATED" : "IDLE";
        n->flags = SNAP_NODE_CLOUD | (m.powered_down ? SNAP_NODE_POWERED_DOWN : 0);
        n->cpus = 8;
        n->alloc_cpus = m.alloc;
        n->weight = 1;
        batch += (batch.empty() ? "" : ",") + m.name;
    }
    for (const char* name : {"batch", "cloud"}) {
        snap_partition* p = snapshot_add_partition(s);
        p->name = dup(name);
        p->nodes = dup(batch);
        p->state = "UP";
        p->max_time = c.max_time;
        p->priority_tier = 1;
    }
    for (const auto& [key, usage] : c.usage) {
        snap_share* sh = snapshot_add_share(s);
        sh->account = dup(std::get<0>(key));
        sh->user = dup(std::get<1>(key));
        sh->raw_shares = 1;
        sh->raw_usage = usage;
        sh->fs_factor = 1 / (1 + usage);
    }
}

// One pass of change; returns whether any job changed.
bool churn(Cluster& c, std::mt19937& rng)
{
    auto chance = [&](int percent) { return int(rng() % 100) < percent; };
    bool changed = false;
    for (int n = int(rng() % 4); n-- > 0; changed = true) {
        ModelJob j;
        j.id = c.next_id++;
        j.priority = rng() % 5000;
        j.tasks = chance(20) ? 1 + rng() % 50 : 1;
        j.cpus = 1 + rng() % 8;
        j.name = "stage-" + std::to_string(rng() % 5);
        c.jobs[j.id] = j;
    }
    for (auto it = c.jobs.begin(); it != c.jobs.end();) {
        ModelJob& j = it->second;
        if (j.running && chance(10)) {
            it = c.jobs.erase(it);
            changed = true;
            continue;
        }
        if (!j.running && chance(8)) {
            j.running = true;
            j.nodes = c.nodes.empty() ? "" : c.nodes[rng() % c.nodes.size()].name;
            changed = true;
        } else if (!j.running && chance(5)) {
            j.reason = j.reason == "Priority" ? "Resources" : "Priority";
            changed = true;
        }
        ++it;
    }
    if (chance(35)) // PriorityCalcPeriod: every pending job's priority moves
        for (auto& [id, j] : c.jobs)
            if (!j.running && chance(80)) {
                j.priority += 1 + rng() % 7;
                changed = true;
            }
    for (auto& n : c.nodes)
        if (chance(10))
            n.alloc = rng() % 9;
    if (chance(5))
        c.nodes.push_back({"n" + std::to_string(c.next_node++), 0, true});
    if (chance(3) && !c.nodes.empty())
        c.nodes.erase(c.nodes.begin() + long(rng() % c.nodes.size()));
    if (chance(5))
        c.max_time = c.max_time ? 0 : 3600;
    for (auto& [key, usage] : c.usage)
        if (chance(30))
            usage = usage * 0.9 + double(rng() % 100);
    if (chance(4))
        c.usage[{"bio", "u" + std::to_string(rng() % 20), chance(50) ? "batch" : "cloud"}] = 0;
    if (chance(3) && c.usage.size() > 1)
        c.usage.erase(std::next(c.usage.begin(), long(rng() % c.usage.size())));
    return changed;
}

// ---- burstd's view, in one canonical text per state ----

std::string text_of(const Snapshot& s)
{
    std::ostringstream o;
    std::vector<const Job*> jobs;
    for (const auto& j : s.jobs)
        jobs.push_back(&j);
    std::sort(jobs.begin(), jobs.end(), [](const Job* a, const Job* b) { return a->id < b->id; });
    for (const Job* j : jobs) {
        o << "job " << j->id << " tasks " << j->array_task_count << " prio " << j->priority << " cpus " << j->cpus
          << " state " << int(j->state) << " reason " << j->reason.text() << " parts";
        for (const auto& p : j->partitions.names())
            o << " " << p;
        o << " name " << j->name << " account " << j->account << " nodes";
        for (const auto& n : j->nodes)
            o << " " << n;
        o << " start " << j->start_time << " needs " << j->needs.cpus() << "\n";
    }
    auto by_name = [](auto records) {
        std::sort(records.begin(), records.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
        return records;
    };
    for (const auto& n : by_name(s.nodes))
        o << "node " << n.name << " " << int(n.base) << " " << n.flags << " " << n.alloc_cpus << "\n";
    for (const auto& p : by_name(s.partitions)) {
        o << "partition " << p.name << " " << p.max_time;
        for (const auto& n : p.nodes)
            o << " " << n;
        o << "\n";
    }
    auto shares = s.shares;
    std::sort(shares.begin(), shares.end(),
              [](const Share& a, const Share& b) {
                  return std::tie(a.account, a.user, a.raw_usage) < std::tie(b.account, b.user, b.raw_usage);
              });
    char usage[64];
    for (const auto& sh : shares) {
        std::snprintf(usage, sizeof(usage), "%.17g %.17g", sh.raw_usage, sh.fairshare_factor);
        o << "share " << sh.account << "/" << sh.user << " " << usage << "\n";
    }
    return o.str();
}

// What a whole snapshot of the cluster tells burstd.
std::string whole_text(const Cluster& c)
{
    snapshot s{};
    copy(c, &s, true);
    std::size_t len = 0;
    char* line = snapshot_json_snapshot(&s, "lab", 1, 1700000000, expand_commas, &len);
    snapshot_clear(&s);
    CHECK(line != nullptr);
    ParsedMessage parsed = parse_message(std::string_view(line, len - 1));
    std::free(line);
    CHECK_TEXT(parsed.message.has_value(), parsed.error.c_str());
    return text_of(std::get<Snapshot>(parsed.message->body));
}

// burstd's side as the daemon wires it: a hello that offers deltas and a
// delta that does not fit are each answered with a resync.
class Burstd : public IngestObserver {
public:
    explicit Burstd(boost::asio::io_context& io, const std::string& path)
        : server(io, options(path), *this)
    {
    }
    void connected(const PeerCredentials&) override {}
    void refused(const PeerCredentials&) override {}
    void disconnected(const std::string&) override {}
    void rejected(const std::string& why) override { FAIL(why.c_str()); }
    void accepted(ProtocolMessage&& m) override
    {
        ++messages;
        if (auto* hello = std::get_if<Hello>(&m.body)) {
            if (hello->sends_deltas)
                server.send(m.connection, serialize_resync("lab", ++resyncs, 0, "hello"));
        } else if (auto* whole = std::get_if<Snapshot>(&m.body)) {
            ++wholes;
            state.replace(std::move(*whole), m.connection);
        } else if (auto* delta = std::get_if<SnapshotDelta>(&m.body)) {
            const std::string why = state.apply(std::move(*delta), m.seq, m.time, m.connection);
            if (why.empty()) {
                ++deltas;
            } else {
                ++refused_deltas;
                server.send(m.connection, serialize_resync("lab", ++resyncs, 0, why));
            }
        }
    }

    SnapshotServer server;
    SnapshotAssembler state;
    int messages = 0, wholes = 0, deltas = 0, refused_deltas = 0;
    std::uint64_t resyncs = 0;

private:
    static SnapshotServer::Options options(const std::string& path)
    {
        SnapshotServer::Options o;
        o.path = path;
        o.cluster = "lab";
        o.admit = [](uid_t) { return true; };
        return o;
    }
};

// The exporter's side: its state stream and its end of the socket.
struct Plugin {
    explicit Plugin(unsigned full_snapshot_every) { stream.full_snapshot_every = full_snapshot_every; }
    ~Plugin()
    {
        state_stream_clear(&stream);
        snapshot_clear(&snap);
    }
    state_stream stream{};
    snapshot snap{};
    std::uint64_t seq = 0;
    std::string inbox;
};

struct Run {
    int wholes = 0, deltas = 0, refused = 0, silent_losses = 0, known_drops = 0, reconnects = 0;
    std::size_t delta_bytes = 0, whole_bytes = 0;
};

Run replay(std::uint32_t seed, int passes, unsigned full_snapshot_every)
{
    char dir_template[] = "/tmp/burst-stream-XXXXXX";
    const std::string dir = mkdtemp(dir_template);
    const std::string path = dir + "/snap.sock";
    boost::asio::io_context io;
    Burstd burstd(io, path);
    Plugin plugin(full_snapshot_every);
    std::mt19937 rng(seed);
    Cluster cluster;
    for (int i = 1; i <= 6; ++i)
        cluster.nodes.push_back({"n" + std::to_string(cluster.next_node++), 0, i > 3});
    cluster.usage[{"bio", "", ""}] = 10;
    cluster.usage[{"bio", "ann", "batch"}] = 5;
    cluster.usage[{"bio", "ann", "cloud"}] = 7;
    Run run;

    auto pump_until = [&](int messages) {
        for (int i = 0; i < 2000 && burstd.messages < messages; ++i)
            io.run_one_for(std::chrono::milliseconds(5));
        LONGS_EQUAL(messages, burstd.messages);
    };
    // What burstd sent back (resyncs), read without blocking.
    auto read_replies = [&](stream_protocol::socket& sock) {
        io.poll();
        char buf[4096];
        boost::system::error_code ec;
        while (sock.available(ec) > 0) {
            const std::size_t n = sock.read_some(boost::asio::buffer(buf), ec);
            plugin.inbox.append(buf, n);
        }
        for (std::size_t nl; (nl = plugin.inbox.find('\n')) != std::string::npos; plugin.inbox.erase(0, nl + 1)) {
            char reason[256], err[256];
            const int rc = burst_resync_parse(plugin.inbox.data(), nl, "lab", reason, sizeof reason, err, sizeof err);
            CHECK_EQUAL_TEXT(1, rc, err);
            state_stream_resync(&plugin.stream);
        }
    };
    auto connect = [&](stream_protocol::socket& sock) {
        sock = stream_protocol::socket(io);
        sock.connect(stream_protocol::endpoint(path));
        state_stream_connected(&plugin.stream);
        plugin.inbox.clear();
        plugin.seq = 0; // as burst_link: seq counts per connection
        std::size_t len = 0;
        char* hello = snapshot_json_hello("lab", ++plugin.seq, 1700000000, "test", "22.05", &len);
        boost::asio::write(sock, boost::asio::buffer(hello, len));
        std::free(hello);
        pump_until(burstd.messages + 1);
    };

    stream_protocol::socket sock(io);
    connect(sock);
    // A message burstd never got, which the plugin took for queued: burstd's
    // state may be stale or gone until the next whole snapshot.
    bool unknown_loss = false;
    for (int pass = 0; pass < passes; ++pass) {
        read_replies(sock);
        if (pass > 0 && rng() % 100 < 3) {
            sock.close();
            connect(sock);
            ++run.reconnects;
            read_replies(sock);
        }
        const bool jobs_changed = churn(cluster, rng);
        // As the exporter: jobs are copied when they changed, and when no
        // copy is kept; at times without a change too (a clock step).
        const bool jobs_copied = jobs_changed || !plugin.stream.jobs_valid || rng() % 4 == 0;
        if (jobs_copied)
            plugin.stream.jobs_valid = 0; // the exporter clears it as it starts a copy
        snapshot_reset(&plugin.snap);
        copy(cluster, &plugin.snap, jobs_copied);
        state_stream_stats stats;
        const std::size_t len = state_stream_write(&plugin.stream, &plugin.snap, jobs_copied, "lab", plugin.seq + 1,
                                                   1700000000 + pass, expand_commas, &stats);
        CHECK(len > 0);
        const bool delta = std::string(stats.kind) == "delta";
        const int fate = int(rng() % 100);
        if (fate < 4) { // the link's queue was full: the plugin knows
            state_stream_sent(&plugin.stream, plugin.seq, 0);
            ++run.known_drops;
            continue;
        }
        ++plugin.seq;
        state_stream_sent(&plugin.stream, plugin.seq, 1);
        if (fate < 8) {
            unknown_loss = true;
            ++run.silent_losses;
            continue;
        }
        boost::asio::write(sock, boost::asio::buffer(plugin.stream.msg.buf, len));
        pump_until(burstd.messages + 1);
        (delta ? run.delta_bytes : run.whole_bytes) += len;
        if (!delta)
            unknown_loss = false;

        // burstd either holds the cluster as it is, or — only after a loss it
        // could not know of — holds nothing.
        const std::string where = "seed " + std::to_string(seed) + " pass " + std::to_string(pass);
        const Snapshot* state = burstd.state.state();
        if (unknown_loss) {
            CHECK_TEXT(state == nullptr, (where + ": burstd decides on a state after a lost message").c_str());
            continue;
        }
        CHECK_TEXT(state != nullptr, (where + ": burstd dropped a good state").c_str());
        STRCMP_EQUAL_TEXT(whole_text(cluster).c_str(), text_of(*state).c_str(), where.c_str());
    }
    run.wholes = burstd.wholes;
    run.deltas = burstd.deltas;
    run.refused = burstd.refused_deltas;
    sock.close();
    burstd.server.close();
    ::unlink(path.c_str());
    ::rmdir(dir.c_str());
    return run;
}

} // namespace

TEST_GROUP(StateStream){};

TEST(StateStream, BurstdHoldsTheClusterAfterEveryMessageThroughLossesAndReconnects)
{
    for (std::uint32_t seed : {1u, 2u, 3u}) {
        const Run run = replay(seed, 400, 20);
        // Every path was taken: deltas applied, gaps found and healed.
        CHECK(run.deltas > 200);
        CHECK(run.silent_losses > 0 && run.refused > 0);
        CHECK(run.known_drops > 0 && run.reconnects > 0);
        CHECK(run.wholes > run.reconnects);
    }
}

TEST(StateStream, DeltasCarryOnlyWhatChanged)
{
    const Run run = replay(7, 200, 1000000);
    CHECK(run.deltas > 150);
    // Each whole snapshot restates every job; each delta only churn.
    const double per_whole = double(run.whole_bytes) / run.wholes, per_delta = double(run.delta_bytes) / run.deltas;
    CHECK_TEXT(per_delta * 4 < per_whole,
               ("delta " + std::to_string(per_delta) + " B, whole " + std::to_string(per_whole) + " B").c_str());
}

TEST(StateStream, WithoutAResyncThePluginSendsOnlyWholeSnapshots)
{
    Plugin plugin(20);
    state_stream_connected(&plugin.stream);
    Cluster cluster;
    ModelJob job;
    job.id = 1;
    job.priority = 10;
    cluster.jobs[1] = job;
    for (int pass = 0; pass < 3; ++pass) {
        snapshot_reset(&plugin.snap);
        copy(cluster, &plugin.snap, true);
        state_stream_stats stats;
        CHECK(state_stream_write(&plugin.stream, &plugin.snap, 1, "lab", pass + 1, 0, expand_commas, &stats) > 0);
        STRCMP_EQUAL("snapshot", stats.kind);
        state_stream_sent(&plugin.stream, pass + 1, 1);
    }
    // After a resync: one whole, then deltas based on it, a whole every 20.
    state_stream_resync(&plugin.stream);
    std::vector<std::string> kinds;
    for (int pass = 3; pass < 26; ++pass) {
        snapshot_reset(&plugin.snap);
        copy(cluster, &plugin.snap, true);
        state_stream_stats stats;
        const std::size_t len =
            state_stream_write(&plugin.stream, &plugin.snap, 1, "lab", pass + 1, 0, expand_commas, &stats);
        kinds.push_back(stats.kind);
        if (kinds.size() == 2) {
            const std::string line(plugin.stream.msg.buf, len);
            CHECK_TEXT(line.find(R"("v":2,"type":"delta")") == 0 + 1, line.c_str());
            CHECK_TEXT(line.find(R"("base":4)") != std::string::npos, line.c_str());
        }
        state_stream_sent(&plugin.stream, pass + 1, 1);
    }
    STRCMP_EQUAL("snapshot", kinds[0].c_str());
    for (std::size_t i = 1; i <= 20; ++i)
        STRCMP_EQUAL("delta", kinds[i].c_str());
    STRCMP_EQUAL("snapshot", kinds[21].c_str());
    STRCMP_EQUAL("delta", kinds[22].c_str());
}

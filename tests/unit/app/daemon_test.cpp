#include "app/config/config_parser.hpp"
#include "app/control/control_client.hpp"
#include "app/daemon.hpp"
#include "common/json_ref.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/buffers_iterator.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>

#include <jansson.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <CppUTest/TestHarness.h>

using namespace burst;
using boost::asio::local::stream_protocol;

namespace {

std::string make_config(const std::string& dir, const std::string& extra = "")
{
    return "ClusterName=lab SlurmUser=root CycleInterval=1\n"
           "SocketPath=" + dir + "/snap.sock ControlSocket=" + dir + "/ctl.sock StateDir=" + dir + "\n"
           "Provider=box Type=local\n"
           "NodeGroup=dev Provider=box Nodes=c[1-4] Partition=cloud Cpus=2 PricePerHour=0\n" + extra;
}

const char* kHello = R"({"v":1,"type":"hello","cluster":"lab","seq":1,"time":100,"plugin_version":"0.1.0","slurm_version":"22.05.8"})";

std::string snapshot(int seq, const std::string& cluster = "lab")
{
    return R"({"v":1,"type":"snapshot","cluster":")" + cluster + R"(","seq":)" + std::to_string(seq) +
           R"(,"time":200,"jobs":[{"id":5,"user":"u","account":"a","partitions":["cloud"],"state":"PENDING",)"
           R"("submit_time":150,"cpus":4}],"nodes":[{"name":"c1","state":"IDLE","flags":["CLOUD","POWERED_DOWN"],)"
           R"("cpus":2,"alloc_cpus":0}],"partitions":[],"shares":[]})";
}

std::int64_t field(json_t* status, const char* object, const char* key)
{
    return json_integer_value(json_object_get(json_object_get(status, object), key));
}

} // namespace

TEST_GROUP(Daemon)
{
    std::string dir;
    std::string config_path;
    std::ostringstream log_text;
    Logger log{log_text, LogLevel::Debug, false};
    ManualClock clock{1000};
    boost::asio::io_context io;

    void setup() override
    {
        char tmpl[] = "/tmp/burstd-test-XXXXXX";
        CHECK_TRUE(mkdtemp(tmpl) != nullptr);
        dir = tmpl;
        config_path = dir + "/burstd.conf";
        write_config(make_config(dir));
    }
    void teardown() override
    {
        std::filesystem::remove_all(dir);
    }
    void write_config(const std::string& text) { std::ofstream(config_path) << text; }
    BurstdConfig load()
    {
        auto r = load_config(config_path);
        CHECK_TRUE_TEXT(r.ok(), r.errors.empty() ? "" : r.errors[0].c_str());
        return r.config;
    }
    // The status burstd reports over its control socket (io runs on another thread).
    JsonRef status()
    {
        auto exchange = exchange_control(dir + "/ctl.sock", R"({"cmd":"status"})", std::chrono::seconds(5));
        CHECK_TRUE_TEXT(exchange.reply.has_value(), exchange.error.c_str());
        JsonRef reply(json_loads(exchange.reply->c_str(), 0, nullptr));
        CHECK_TRUE(json_is_true(json_object_get(reply.get(), "ok")));
        return JsonRef(json_incref(json_object_get(reply.get(), "status")));
    }
};

// One line from burstd on the plugin's socket, or "" after two seconds.
std::string read_line(stream_protocol::socket& plugin, boost::asio::streambuf& in)
{
    pollfd ready{plugin.native_handle(), POLLIN, 0};
    if (in.size() == 0 && ::poll(&ready, 1, 2000) != 1)
        return "";
    boost::system::error_code ec;
    const std::size_t n = boost::asio::read_until(plugin, in, '\n', ec);
    if (ec)
        return "";
    std::string line(boost::asio::buffers_begin(in.data()), boost::asio::buffers_begin(in.data()) + n);
    in.consume(n);
    return line;
}

TEST(Daemon, AsksForAWholeSnapshotOnHelloAndDecidesOnNothingAfterADeltaThatDoesNotFit)
{
    Daemon daemon(io, config_path, load(), log, clock);
    daemon.start(false);
    std::thread runner([this] { io.run(); });

    stream_protocol::socket plugin(io);
    plugin.connect(stream_protocol::endpoint(dir + "/snap.sock"));
    boost::asio::streambuf in;
    const std::string hello = R"({"v":1,"type":"hello","cluster":"lab","seq":1,"time":100,"versions":[1,2]})";
    boost::asio::write(plugin, boost::asio::buffer(hello + "\n"));
    const std::string resync = read_line(plugin, in);
    CHECK_TEXT(resync.find(R"("type":"resync")") != std::string::npos, resync.c_str());
    CHECK_TEXT(resync.find(R"("reason":"hello")") != std::string::npos, resync.c_str());

    // The snapshot's one job leaves: no jobs, one node.
    const std::string fits = R"({"v":2,"type":"delta","cluster":"lab","seq":4,"time":205,"base":3,"jobs_removed":[5],)"
                             R"("check":{"jobs":0,"nodes":1,"partitions":0,"shares":0,"job_sum":0}})";
    const std::string gap = R"({"v":2,"type":"delta","cluster":"lab","seq":6,"time":210,"base":5,)"
                            R"("check":{"jobs":0,"nodes":1,"partitions":0,"shares":0,"job_sum":0}})";
    boost::asio::write(plugin, boost::asio::buffer(snapshot(3) + "\n" + fits + "\n"));
    JsonRef s;
    for (int i = 0; i < 500 && field(s.get(), "ingest", "deltas") < 1; ++i) {
        s = status();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    LONGS_EQUAL(4, field(s.get(), "snapshot", "seq"));
    LONGS_EQUAL(0, field(s.get(), "snapshot", "pending_jobs"));
    LONGS_EQUAL(1, field(s.get(), "ingest", "whole_snapshots"));

    boost::asio::write(plugin, boost::asio::buffer(gap + "\n"));
    const std::string asked = read_line(plugin, in);
    CHECK_TEXT(asked.find(R"("reason":"base 5 is not the state's last message 4")") != std::string::npos, asked.c_str());
    s = status();
    CHECK(json_is_null(json_object_get(s.get(), "snapshot")));
    CHECK(json_is_true(json_object_get(s.get(), "awaiting_whole_snapshot")));
    LONGS_EQUAL(1, field(s.get(), "ingest", "refused_deltas"));
    LONGS_EQUAL(2, field(s.get(), "ingest", "resyncs"));

    boost::asio::post(io, [&] { daemon.stop(); });
    runner.join();
    CHECK(daemon.latest_snapshot() == nullptr);
    CHECK(log_text.str().find("delta seq 6 (base 5) not applied: base 5 is not the state's last message 4") !=
          std::string::npos);
}

TEST(Daemon, KeepsTheLatestSnapshotAndCountsBadLinesWithoutDroppingTheConnection)
{
    Daemon daemon(io, config_path, load(), log, clock);
    daemon.start(false);
    std::thread runner([this] { io.run(); });

    stream_protocol::socket plugin(io);
    plugin.connect(stream_protocol::endpoint(dir + "/snap.sock"));
    std::string lines = std::string(kHello) + "\n" + "garbage\n" +
                        R"({"v":3,"type":"hello","cluster":"lab","seq":2,"time":1})" "\n" + snapshot(3, "other") +
                        "\n" + snapshot(4) + "\n" + snapshot(4) + "\n";
    boost::asio::write(plugin, boost::asio::buffer(lines));

    JsonRef s;
    for (int i = 0; i < 500; ++i) {
        s = status();
        if (field(s.get(), "ingest", "messages") + field(s.get(), "ingest", "bad_messages") >= 6)
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    LONGS_EQUAL(2, field(s.get(), "ingest", "messages"));
    LONGS_EQUAL(4, field(s.get(), "ingest", "bad_messages"));
    LONGS_EQUAL(1, field(s.get(), "ingest", "open_connections"));
    LONGS_EQUAL(4, field(s.get(), "snapshot", "seq"));
    LONGS_EQUAL(1, field(s.get(), "snapshot", "pending_jobs"));

    boost::asio::post(io, [&] { daemon.stop(); });
    runner.join();
    CHECK_TRUE(daemon.latest_snapshot() != nullptr);
    LONGS_EQUAL(5, daemon.latest_snapshot()->jobs[0].id);
    std::string text = log_text.str();
    CHECK_TRUE(text.find("plugin hello: slurm-burst 0.1.0 on Slurm 22.05.8") != std::string::npos);
    CHECK_TRUE(text.find("error: rejected message: invalid JSON") != std::string::npos);
    CHECK_TRUE(text.find("v: unsupported protocol version 3") != std::string::npos);
    CHECK_TRUE(text.find("cluster: expected \"lab\"") != std::string::npos);
    CHECK_TRUE(text.find("seq: expected more than 4") != std::string::npos);
    CHECK_EQUAL(-1, access((dir + "/snap.sock").c_str(), F_OK));
}

TEST(Daemon, SendsAdviceToConnectedPlugins)
{
    Daemon daemon(io, config_path, load(), log, clock);
    daemon.start(false);
    stream_protocol::socket plugin(io);
    plugin.connect(stream_protocol::endpoint(dir + "/snap.sock"));
    boost::asio::write(plugin, boost::asio::buffer(std::string(kHello) + "\n"));
    for (int i = 0; i < 500 && daemon.ingest_counters().messages == 0; ++i)
        io.run_for(std::chrono::milliseconds(10));
    daemon.send_advice({{"bio/align", 8}});
    for (int i = 0; i < 50 && daemon.ingest_counters().advice_sent == 0; ++i)
        io.run_for(std::chrono::milliseconds(10));
    io.run_for(std::chrono::milliseconds(50));
    std::string line(256, '\0');
    line.resize(plugin.read_some(boost::asio::buffer(line)));
    STRCMP_EQUAL(R"({"v":1,"type":"advice","cluster":"lab","seq":1,"time":1000,"replace":true,"threads":{"bio/align":8}})" "\n",
                 line.c_str());
    daemon.stop();
}

TEST(Daemon, ReloadKeepsTheRunningConfigurationWhenTheNewOneIsBad)
{
    Daemon daemon(io, config_path, load(), log, clock);
    write_config(make_config(dir, "LogLevel=chatty\n"));
    CHECK_FALSE(daemon.reload());
    CHECK_TRUE(log_text.str().find("burstd.conf:5: LogLevel: expected one of error, info, verbose, debug") !=
               std::string::npos);
    CHECK_TRUE(log_text.str().find("keeping the running one") != std::string::npos);
    LONGS_EQUAL(1, daemon.config().node_groups.size());

    write_config(make_config(dir, "LogLevel=verbose\n"));
    CHECK_TRUE(daemon.reload());
    CHECK_TRUE(daemon.config().log_level == LogLevel::Verbose);
}

// The instance manager launches with the groups read at start-up; policies
// hiring in a group it does not know would ask for nodes nothing launches.
TEST(Daemon, ReloadKeepsTheRunningNodeGroupsAndSaysWhichChangesWaitForARestart)
{
    Daemon daemon(io, config_path, load(), log, clock);
    write_config(make_config(dir, "NodeGroup=more Provider=box Nodes=d[1-2] Partition=cloud Cpus=2 PricePerHour=0\n"));
    CHECK_TRUE(daemon.reload());
    LONGS_EQUAL(1, daemon.config().node_groups.size());
    CHECK_TRUE(log_text.str().find("reload: NodeGroup=more is new: it takes effect after a restart") !=
               std::string::npos);
}

TEST(Daemon, PowerRequestsGoToTheHandlerOnlyForConfiguredNodes)
{
    Daemon daemon(io, config_path, load(), log, clock);
    PeerCredentials root{1, 0, 0};
    std::string reply = daemon.handle_control(R"({"cmd":"resume","nodes":"c[1-2]"})", root);
    CHECK_TRUE(reply.find("no provider actuator is wired into this burstd") != std::string::npos);

    ControlRequest seen;
    daemon.set_power_handler([&](const ControlRequest& r, const PeerCredentials&) {
        seen = r;
        return PowerReply{true, "launching c[1-2]"};
    });
    reply = daemon.handle_control(
        R"({"cmd":"resume","nodes":"c[1-2]","resume_file":{"jobs":[{"job_id":9,"nodes_resume":"c[1-2]"}]}})", root);
    STRCMP_EQUAL(R"({"ok":true,"message":"launching c[1-2]"})", reply.c_str());
    LONGS_EQUAL(2, seen.nodes.size());
    LONGS_EQUAL(1, seen.jobs.count(9));

    reply = daemon.handle_control(R"({"cmd":"suspend","nodes":"c4,x[1-2]"})", root);
    CHECK_TRUE(reply.find("x[1-2] belong to no NodeGroup") != std::string::npos);
    reply = daemon.handle_control("nonsense", root);
    CHECK_TRUE(reply.find(R"("ok":false)") != std::string::npos);
}

TEST(Daemon, ResetGroupGoesToItsHandlerOnlyForConfiguredGroups)
{
    Daemon daemon(io, config_path, load(), log, clock);
    PeerCredentials root{1, 0, 0};
    std::string reply = daemon.handle_control(R"({"cmd":"reset-group","group":"dev"})", root);
    CHECK_TRUE(reply.find("no provider actuator is wired") != std::string::npos);
    std::string seen;
    daemon.set_group_reset_handler([&](const std::string& group) {
        seen = group;
        return PowerReply{true, "node group dev: protected -> hiring"};
    });
    reply = daemon.handle_control(R"({"cmd":"reset-group","group":"gpu"})", root);
    CHECK_TRUE(reply.find("no NodeGroup=gpu in") != std::string::npos);
    CHECK_TRUE(seen.empty());
    reply = daemon.handle_control(R"({"cmd":"reset-group","group":"dev"})", root);
    STRCMP_EQUAL(R"({"ok":true,"message":"node group dev: protected -> hiring"})", reply.c_str());
    STRCMP_EQUAL("dev", seen.c_str());
}

TEST(Daemon, CycleTimerRunsTheCycleRunnerWithTheLatestSnapshot)
{
    BurstdConfig config = load();
    config.cycle_interval = 0.01; // below what burstd.conf allows, to keep the test quick
    Daemon daemon(io, config_path, config, log, clock);
    int calls = 0;
    bool had_snapshot = true;
    daemon.set_cycle_runner([&](const CycleContext& c) {
        ++calls;
        had_snapshot = c.snapshot != nullptr;
        DOUBLES_EQUAL(1000, c.now, 0);
        if (calls == 2)
            throw std::runtime_error("policy blew up");
        if (calls == 3)
            daemon.stop();
    });
    daemon.start(false);
    io.run_for(std::chrono::seconds(10));
    LONGS_EQUAL(3, calls);
    CHECK_FALSE(had_snapshot);
    CHECK_TRUE(log_text.str().find("error: cycle 2 failed: policy blew up") != std::string::npos);
}

TEST(Daemon, ControlSocketRefusesOtherUsers)
{
    if (geteuid() != 0)
        return; // needs root to become another user
    CHECK_EQUAL(0, chmod(dir.c_str(), 0755));
    Daemon daemon(io, config_path, load(), log, clock);
    daemon.start(false);
    std::thread runner([this] { io.run(); });
    pid_t child = fork();
    if (child == 0) {
        if (setgid(65534) != 0 || setuid(65534) != 0)
            _exit(3);
        auto exchange = exchange_control(dir + "/ctl.sock", R"({"cmd":"status"})", std::chrono::seconds(5));
        _exit(exchange.reply && exchange.reply->find("permission denied") != std::string::npos ? 0 : 1);
    }
    int wstatus = 0;
    waitpid(child, &wstatus, 0);
    boost::asio::post(io, [&] { daemon.stop(); });
    runner.join();
    CHECK_TRUE(WIFEXITED(wstatus));
    LONGS_EQUAL(0, WEXITSTATUS(wstatus));
    CHECK_TRUE(log_text.str().find("control socket: refused uid 65534") != std::string::npos);
}

TEST(Daemon, ClientReportsWhenBurstdIsNotRunning)
{
    auto exchange = exchange_control(dir + "/nothing.sock", R"({"cmd":"status"})", std::chrono::seconds(1));
    CHECK_FALSE(exchange.reply.has_value());
    CHECK_TRUE(exchange.not_running);
}

// Type=notify: READY=1 only once both sockets accept, WATCHDOG=1 from the
// daemon's own event loop while it runs, STOPPING=1 when it stops.
TEST(Daemon, TellsTheServiceManagerReadyPingsTheWatchdogAndSaysStopping)
{
    const std::string notify_path = dir + "/notify";
    int systemd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, notify_path.c_str(), sizeof addr.sun_path - 1);
    CHECK_EQUAL(0, bind(systemd, reinterpret_cast<sockaddr*>(&addr), sizeof addr));
    auto receive = [systemd] {
        char buf[512];
        ssize_t n = recv(systemd, buf, sizeof buf, 0);
        return n < 0 ? std::string("(nothing)") : std::string(buf, std::size_t(n));
    };

    ServiceNotifier notifier(notify_path, std::chrono::milliseconds(20));
    Daemon daemon(io, config_path, load(), log, clock);
    daemon.set_service_notifier(&notifier);
    STRCMP_EQUAL("(nothing)", receive().c_str());
    daemon.start(false);
    std::string ready = receive();
    CHECK_TRUE_TEXT(ready.rfind("READY=1\nSTATUS=listening on " + dir + "/snap.sock and " + dir + "/ctl.sock", 0) == 0,
                    ready.c_str());
    CHECK_EQUAL(0, access((dir + "/snap.sock").c_str(), F_OK));
    CHECK_EQUAL(0, access((dir + "/ctl.sock").c_str(), F_OK));

    STRCMP_EQUAL("(nothing)", receive().c_str()); // pings come from the loop, which has not run yet
    io.run_for(std::chrono::milliseconds(110));
    int pings = 0;
    for (std::string m = receive(); m == "WATCHDOG=1"; m = receive())
        ++pings;
    CHECK_TRUE_TEXT(pings >= 1 && pings <= 6, std::to_string(pings).c_str());

    daemon.stop();
    std::string last;
    for (std::string m = receive(); m != "(nothing)"; m = receive())
        last = m;
    STRCMP_EQUAL("STOPPING=1\nSTATUS=shutting down", last.c_str());
    close(systemd);
}

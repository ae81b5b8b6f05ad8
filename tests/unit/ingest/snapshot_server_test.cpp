#include "ingest/snapshot_server.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/write.hpp>

#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;
using boost::asio::local::stream_protocol;

namespace {

struct RecordingObserver : IngestObserver {
    std::vector<std::string> events;
    void connected(const PeerCredentials&) override { events.push_back("connected"); }
    void refused(const PeerCredentials&) override { events.push_back("refused"); }
    void disconnected(const std::string& why) override { events.push_back("disconnected: " + why); }
    void rejected(const std::string& why) override { events.push_back("rejected: " + why); }
    void accepted(ProtocolMessage&& m) override { events.push_back("accepted " + m.type); }
};

const char* kHello = R"({"v":1,"type":"hello","cluster":"lab","seq":1,"time":1})";

} // namespace

TEST_GROUP(SnapshotServer)
{
    boost::asio::io_context io;
    RecordingObserver observer;
    std::string path = "/tmp/burstd-snapshot-server-test-" + std::to_string(getpid()) + ".sock";

    SnapshotServer::Options options(std::size_t max_line, bool admit)
    {
        SnapshotServer::Options o;
        o.path = path;
        o.cluster = "lab";
        o.max_line = max_line;
        o.admit = [admit](uid_t) { return admit; };
        return o;
    }
    void run_until(std::size_t events)
    {
        for (int i = 0; i < 500 && observer.events.size() < events; ++i)
            io.run_for(std::chrono::milliseconds(10));
    }
    void teardown() override { unlink(path.c_str()); }
};

TEST(SnapshotServer, RejectsOversizedLinesAndKeepsReading)
{
    SnapshotServer server(io, options(100, true), observer);
    stream_protocol::socket client(io);
    client.connect(stream_protocol::endpoint(path));
    boost::asio::write(client, boost::asio::buffer(std::string(500, 'x') + "\n" + kHello + "\n"));
    client.close();
    run_until(4);
    LONGS_EQUAL(4, observer.events.size());
    STRCMP_EQUAL("connected", observer.events[0].c_str());
    STRCMP_EQUAL("rejected: line of 500 bytes exceeds the limit of 100 bytes", observer.events[1].c_str());
    STRCMP_EQUAL("accepted hello", observer.events[2].c_str());
    STRCMP_EQUAL("disconnected: closed by peer", observer.events[3].c_str());
    LONGS_EQUAL(1, server.counters().oversized);
    LONGS_EQUAL(1, server.counters().bad_messages);
    LONGS_EQUAL(1, server.counters().messages);
}

TEST(SnapshotServer, RefusesPeersTheAdmissionRuleRejects)
{
    SnapshotServer server(io, options(100, false), observer);
    stream_protocol::socket client(io);
    client.connect(stream_protocol::endpoint(path));
    run_until(1);
    STRCMP_EQUAL("refused", observer.events.at(0).c_str());
    LONGS_EQUAL(1, server.counters().refused_peers);
    LONGS_EQUAL(0, server.open_connections());
}

TEST(SnapshotServer, ReplacesAStaleSocketButNotAFile)
{
    {
        SnapshotServer first(io, options(100, true), observer);
    }
    SnapshotServer second(io, options(100, true), observer); // stale socket file from `first`
    second.close();
    unlink(path.c_str());
    FILE* f = fopen(path.c_str(), "w");
    CHECK_TRUE(f != nullptr);
    fclose(f);
    CHECK_THROWS(std::runtime_error, SnapshotServer(io, options(100, true), observer));
}

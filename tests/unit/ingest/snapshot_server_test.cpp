#include "ingest/snapshot_server.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <future>
#include <new>
#include <thread>
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

TEST(SnapshotServer, DecodesOffTheIoThreadAndHandsMessagesOverInOrder)
{
    // The decoder waits until a timer has fired on the io thread: were lines
    // decoded there, the timer could not fire and the decoder would give up.
    std::promise<void> ticked;
    std::shared_future<void> tick = ticked.get_future().share();
    std::atomic<bool> waited_in_vain{false};
    const std::thread::id io_thread = std::this_thread::get_id();
    std::atomic<bool> decoded_on_io{false};
    SnapshotServer::Options o = options(200, true);
    o.decode = [&](std::string_view line) {
        decoded_on_io = decoded_on_io || std::this_thread::get_id() == io_thread;
        if (tick.wait_for(std::chrono::seconds(5)) != std::future_status::ready)
            waited_in_vain = true;
        return parse_message(line);
    };
    SnapshotServer server(io, o, observer);
    stream_protocol::socket client(io);
    client.connect(stream_protocol::endpoint(path));
    const std::string second = R"({"v":1,"type":"hello","cluster":"lab","seq":2,"time":2})";
    boost::asio::write(client, boost::asio::buffer(std::string(kHello) + "\n" + std::string(300, 'x') + "\n" +
                                                   R"({"v":1,"type":"hello","cluster":"other","seq":3,"time":2})" +
                                                   "\n" + second + "\n"));
    boost::asio::steady_timer timer(io, std::chrono::milliseconds(20));
    timer.async_wait([&](boost::system::error_code) {
        observer.events.push_back("tick");
        ticked.set_value();
    });
    run_until(6);
    CHECK_FALSE(waited_in_vain);
    CHECK_FALSE(decoded_on_io);
    LONGS_EQUAL(6, observer.events.size());
    STRCMP_EQUAL("connected", observer.events[0].c_str());
    STRCMP_EQUAL("tick", observer.events[1].c_str());
    // The lines' verdicts in the order the lines came, the oversized one's too.
    STRCMP_EQUAL("accepted hello", observer.events[2].c_str());
    STRCMP_EQUAL("rejected: line of 300 bytes exceeds the limit of 200 bytes", observer.events[3].c_str());
    STRCMP_CONTAINS("cluster: expected \"lab\"", observer.events[4].c_str());
    STRCMP_EQUAL("accepted hello", observer.events[5].c_str());
    LONGS_EQUAL(2, server.counters().messages);
}

TEST(SnapshotServer, ClosingWhileALineIsDecodedCallsTheObserverNoMore)
{
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::atomic<bool> started{false};
    SnapshotServer::Options o = options(200, true);
    o.decode = [&](std::string_view line) {
        started = true;
        released.wait_for(std::chrono::seconds(5));
        return parse_message(line);
    };
    {
        SnapshotServer server(io, o, observer);
        stream_protocol::socket client(io);
        client.connect(stream_protocol::endpoint(path));
        boost::asio::write(client, boost::asio::buffer(std::string(kHello) + "\n"));
        for (int i = 0; i < 500 && !started; ++i)
            io.run_for(std::chrono::milliseconds(10));
        CHECK(started);
        server.close();
        release.set_value(); // the decode finishes after the close
    } // and the server is gone before the io thread runs again
    io.restart();
    io.run_for(std::chrono::milliseconds(50));
    LONGS_EQUAL(1, observer.events.size()); // connected, nothing after
    STRCMP_EQUAL("connected", observer.events[0].c_str());
}

TEST(SnapshotServer, ADecoderThatRunsOutOfMemoryStopsTheIoThreadAsBefore)
{
    // burstd's main loop logs what leaves io.run() and exits: running out of
    // memory decoding a line must still end there, not in std::terminate.
    SnapshotServer::Options o = options(200, true);
    o.decode = [](std::string_view) -> ParsedMessage { throw std::bad_alloc(); };
    SnapshotServer server(io, o, observer);
    stream_protocol::socket client(io);
    client.connect(stream_protocol::endpoint(path));
    boost::asio::write(client, boost::asio::buffer(std::string(kHello) + "\n"));
    bool thrown = false;
    for (int i = 0; i < 500 && !thrown; ++i) {
        try {
            io.run_for(std::chrono::milliseconds(10));
        } catch (const std::bad_alloc&) {
            thrown = true;
        }
    }
    CHECK(thrown);
    LONGS_EQUAL(1, observer.events.size()); // connected; the line was not handed over
}

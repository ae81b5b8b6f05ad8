#pragma once
// The plugin's side door into burstd: accepts connections on SocketPath, cuts
// each stream into NDJSON lines with a bounded buffer, decodes and checks every
// line, and hands good messages to an observer.  A bad line is counted and
// reported, never fatal to the connection.  Runs on one io_context thread;
// lines are decoded on a thread of its own, and every observer call is made
// on the io_context's thread, in the order the lines came.

#include "ingest/line_framer.hpp"
#include "ingest/message_parser.hpp"
#include "ingest/peer_credentials.hpp"
#include "ingest/protocol_message.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/thread_pool.hpp>

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <string>
#include <string_view>

namespace burst {

struct IngestCounters {
    std::uint64_t connections = 0;
    std::uint64_t refused_peers = 0;
    std::uint64_t messages = 0;      // accepted messages of any type
    std::uint64_t bad_messages = 0;  // rejected lines, oversized ones included
    std::uint64_t oversized = 0;
    std::uint64_t advice_sent = 0; // advice and resync lines
    std::uint64_t advice_dropped = 0; // the connection's send queue was full
};

class IngestObserver {
public:
    virtual ~IngestObserver() = default;
    virtual void connected(const PeerCredentials& peer) = 0;
    virtual void refused(const PeerCredentials& peer) = 0;
    virtual void disconnected(const std::string& why) = 0;
    virtual void rejected(const std::string& why) = 0;
    virtual void accepted(ProtocolMessage&& message) = 0;
};

class SnapshotServer {
public:
    struct Options {
        std::string path;
        std::string cluster;                       // messages for another cluster are rejected
        std::size_t max_line = kMaxMessageBytes;
        std::function<bool(uid_t)> admit;          // which peers may connect
        // Decodes a line, on the decoder thread: parse_message, or what a
        // test puts in its place.
        std::function<ParsedMessage(std::string_view)> decode = parse_message;
    };

    // Starts listening at once; throws std::runtime_error if it cannot.
    SnapshotServer(boost::asio::io_context& io, Options options, IngestObserver& observer);
    ~SnapshotServer();
    SnapshotServer(const SnapshotServer&) = delete;
    SnapshotServer& operator=(const SnapshotServer&) = delete;

    // Queues one advice line to every connected plugin.
    void broadcast(const std::string& line);
    // Queues one line to the plugin on `connection` (ProtocolMessage::connection);
    // nothing if it has gone.
    void send(std::uint64_t connection, const std::string& line);
    void set_cluster(const std::string& cluster) { options_.cluster = cluster; }
    const IngestCounters& counters() const { return counters_; }
    std::size_t open_connections() const;
    void close();

private:
    class Session;
    void accept();

    Options options_;
    IngestObserver& observer_;
    boost::asio::local::stream_protocol::acceptor acceptor_;
    IngestCounters counters_;
    // Pending completions check this before touching the server: one that
    // outlives it (close() then destruction) finds it expired and does nothing.
    std::shared_ptr<int> alive_ = std::make_shared<int>(0);
    std::list<std::weak_ptr<Session>> sessions_;
    boost::asio::thread_pool decoder_{1}; // last: joined first
};

} // namespace burst

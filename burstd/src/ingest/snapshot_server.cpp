#include "ingest/snapshot_server.hpp"

#include "ingest/unix_listener.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

#include <array>
#include <deque>
#include <exception>
#include <vector>

namespace burst {

namespace asio = boost::asio;
using asio::local::stream_protocol;

namespace {
// Advice is small and infrequent; a plugin that stops reading loses advice
// rather than growing burstd's memory.
constexpr std::size_t kMaxQueuedAdvice = 16;
} // namespace

class SnapshotServer::Session : public std::enable_shared_from_this<Session> {
    // A line as framed: its text, or the size of one over the limit.
    struct Framed {
        std::string line;
        std::size_t oversized = 0;
    };

public:
    Session(SnapshotServer& server, stream_protocol::socket socket, std::uint64_t id)
        : server_(server), alive_(server.alive_), socket_(std::move(socket)), framer_(server.options_.max_line), id_(id)
    {
    }

    std::uint64_t id() const { return id_; }

    void start() { read(); }

    void send(const std::string& line)
    {
        if (queue_.size() >= kMaxQueuedAdvice) {
            ++server_.counters_.advice_dropped;
            return;
        }
        ++server_.counters_.advice_sent;
        queue_.push_back(line);
        if (queue_.size() == 1)
            write();
    }

    void close()
    {
        boost::system::error_code ignored;
        socket_.close(ignored);
    }

private:
    void read()
    {
        auto self = shared_from_this();
        socket_.async_read_some(asio::buffer(chunk_), [this, self](boost::system::error_code ec, std::size_t n) {
            if (alive_.expired())
                return;
            if (ec) {
                if (ec != asio::error::operation_aborted)
                    server_.observer_.disconnected(ec == asio::error::eof ? "closed by peer" : ec.message());
                return;
            }
            std::vector<Framed> framed;
            framer_.feed(
                std::string_view(chunk_.data(), n),
                [&framed](std::string_view line) {
                    if (!line.empty() && line != "\r")
                        framed.push_back(Framed{std::string(line), 0});
                },
                [&framed](std::size_t size) { framed.push_back(Framed{{}, size}); });
            if (framed.empty())
                read();
            else
                decode_then_handle(std::move(framed));
        });
    }

    // The lines are decoded on the server's decoder thread: a snapshot of
    // 100,000 jobs takes seconds to decode, which burstctl, the timers and
    // the actuator on the io thread must not wait for.  The connection is
    // read again only once they are handled: its lines are handled in order,
    // and a plugin that sends faster than burstd decodes is held back by its
    // socket, as before.
    void decode_then_handle(std::vector<Framed> framed)
    {
        auto io = socket_.get_executor();
        asio::post(server_.decoder_, [self = shared_from_this(), io, framed = std::move(framed)]() mutable {
            std::vector<ParsedMessage> parsed(framed.size());
            // What cannot be decoded for want of memory is as fatal to burstd
            // as it was on the io thread: it is thrown there.
            std::exception_ptr failed;
            try {
                for (std::size_t i = 0; i < framed.size() && !self->alive_.expired(); ++i)
                    if (framed[i].oversized == 0) {
                        parsed[i] = self->server_.options_.decode(framed[i].line);
                        framed[i].line = std::string(); // the text is not needed again
                    }
            } catch (...) {
                failed = std::current_exception();
            }
            asio::post(io, [self = std::move(self), framed = std::move(framed), parsed = std::move(parsed),
                            failed]() mutable {
                if (failed)
                    std::rethrow_exception(failed);
                if (self->alive_.expired())
                    return;
                for (std::size_t i = 0; i < framed.size(); ++i)
                    if (framed[i].oversized > 0)
                        self->oversized(framed[i].oversized);
                    else
                        self->handle(std::move(parsed[i]));
                self->read();
            });
        });
    }

    void write()
    {
        auto self = shared_from_this();
        asio::async_write(socket_, asio::buffer(queue_.front()), [this, self](boost::system::error_code ec, std::size_t) {
            if (alive_.expired() || ec)
                return; // the read side notices and reports a broken connection
            queue_.pop_front();
            if (!queue_.empty())
                write();
        });
    }

    void oversized(std::size_t size)
    {
        ++server_.counters_.oversized;
        reject("line of " + std::to_string(size) + " bytes exceeds the limit of " +
               std::to_string(server_.options_.max_line) + " bytes");
    }

    void reject(const std::string& why)
    {
        ++server_.counters_.bad_messages;
        server_.observer_.rejected(why);
    }

    void handle(ParsedMessage parsed)
    {
        if (!parsed.message) {
            reject(parsed.error);
            return;
        }
        ProtocolMessage& m = *parsed.message;
        if (m.cluster != server_.options_.cluster) {
            reject(m.type + " seq " + std::to_string(m.seq) + ": cluster: expected \"" + server_.options_.cluster +
                   "\" (ClusterName in burstd.conf), got \"" + m.cluster + "\"");
            return;
        }
        if (seen_seq_ && m.seq <= last_seq_) {
            reject(m.type + " seq " + std::to_string(m.seq) + ": seq: expected more than " + std::to_string(last_seq_) +
                   " (sequence numbers increase per connection)");
            return;
        }
        seen_seq_ = true;
        last_seq_ = m.seq;
        m.connection = id_;
        ++server_.counters_.messages;
        server_.observer_.accepted(std::move(m));
    }

    SnapshotServer& server_;
    std::weak_ptr<int> alive_;
    stream_protocol::socket socket_;
    LineFramer framer_;
    std::array<char, 64 * 1024> chunk_;
    std::deque<std::string> queue_;
    const std::uint64_t id_;
    bool seen_seq_ = false;
    std::uint64_t last_seq_ = 0;
};

SnapshotServer::SnapshotServer(asio::io_context& io, Options options, IngestObserver& observer)
    : options_(std::move(options)), observer_(observer), acceptor_(listen_unix(io, options_.path))
{
    accept();
}

SnapshotServer::~SnapshotServer()
{
    close();
    // Lines queued for it are dropped, the one it decodes now is finished:
    // the server has closed, and the observer is not called again.
    decoder_.stop();
    decoder_.join();
}

void SnapshotServer::close()
{
    alive_.reset();
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    for (auto& weak : sessions_)
        if (auto s = weak.lock())
            s->close();
    sessions_.clear();
}

std::size_t SnapshotServer::open_connections() const
{
    std::size_t n = 0;
    for (const auto& weak : sessions_)
        n += weak.expired() ? 0 : 1;
    return n;
}

void SnapshotServer::broadcast(const std::string& line)
{
    sessions_.remove_if([](const std::weak_ptr<Session>& w) { return w.expired(); });
    for (auto& weak : sessions_)
        if (auto s = weak.lock())
            s->send(line);
}

void SnapshotServer::send(std::uint64_t connection, const std::string& line)
{
    for (auto& weak : sessions_)
        if (auto s = weak.lock(); s && s->id() == connection)
            s->send(line);
}

void SnapshotServer::accept()
{
    std::weak_ptr<int> alive = alive_;
    acceptor_.async_accept([this, alive](boost::system::error_code ec, stream_protocol::socket socket) {
        if (alive.expired() || ec == asio::error::operation_aborted)
            return;
        if (!ec) {
            auto peer = peer_credentials(socket.native_handle());
            if (!peer || !options_.admit || !options_.admit(peer->uid)) {
                ++counters_.refused_peers;
                observer_.refused(peer.value_or(PeerCredentials{0, uid_t(-1), gid_t(-1)}));
            } else {
                ++counters_.connections;
                observer_.connected(*peer);
                sessions_.remove_if([](const std::weak_ptr<Session>& w) { return w.expired(); });
                auto session = std::make_shared<Session>(*this, std::move(socket), counters_.connections);
                sessions_.push_back(session);
                session->start();
            }
        }
        accept();
    });
}

} // namespace burst

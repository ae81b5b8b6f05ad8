#include "app/control/control_server.hpp"

#include "ingest/unix_listener.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/write.hpp>

#include <array>

namespace burst {

namespace asio = boost::asio;
using asio::local::stream_protocol;

class ControlServer::Session : public std::enable_shared_from_this<Session> {
public:
    Session(ControlServer& server, stream_protocol::socket socket, PeerCredentials peer)
        : server_(server), alive_(server.alive_), socket_(std::move(socket)), peer_(peer), framer_(kMaxRequestBytes)
    {
    }

    void read()
    {
        auto self = shared_from_this();
        socket_.async_read_some(asio::buffer(chunk_), [this, self](boost::system::error_code ec, std::size_t n) {
            if (alive_.expired() || ec)
                return;
            framer_.feed(
                std::string_view(chunk_.data(), n),
                [this](std::string_view line) {
                    ++server_.requests_;
                    replies_ += server_.handler_(std::string(line), peer_) + "\n";
                },
                [this](std::size_t) { replies_ += R"({"ok":false,"error":"request too long"})" "\n"; });
            if (replies_.empty()) {
                read();
                return;
            }
            // One request at a time per connection: answer, then read on.
            auto reply = std::make_shared<std::string>(std::move(replies_));
            replies_.clear();
            asio::async_write(socket_, asio::buffer(*reply), [this, self, reply](boost::system::error_code wec, std::size_t) {
                if (!alive_.expired() && !wec)
                    read();
            });
        });
    }

    void refuse()
    {
        auto self = shared_from_this();
        auto reply = std::make_shared<std::string>(
            R"({"ok":false,"error":"permission denied: only root and SlurmUser may use the control socket"})" "\n");
        asio::async_write(socket_, asio::buffer(*reply), [self, reply](boost::system::error_code, std::size_t) {});
    }

private:
    ControlServer& server_;
    std::weak_ptr<int> alive_;
    stream_protocol::socket socket_;
    PeerCredentials peer_;
    LineFramer framer_;
    std::array<char, 16 * 1024> chunk_;
    std::string replies_;
};

ControlServer::ControlServer(asio::io_context& io, const std::string& path, std::function<bool(uid_t)> admit,
                             Handler handler, RefusalReporter refused)
    : acceptor_(listen_unix(io, path)), admit_(std::move(admit)), handler_(std::move(handler)),
      report_refusal_(std::move(refused))
{
    accept();
}

ControlServer::~ControlServer()
{
    alive_.reset();
    boost::system::error_code ignored;
    acceptor_.close(ignored);
}

void ControlServer::accept()
{
    std::weak_ptr<int> alive = alive_;
    acceptor_.async_accept([this, alive](boost::system::error_code ec, stream_protocol::socket socket) {
        if (alive.expired() || ec == asio::error::operation_aborted)
            return;
        if (!ec) {
            auto peer = peer_credentials(socket.native_handle());
            PeerCredentials who = peer.value_or(PeerCredentials{0, uid_t(-1), gid_t(-1)});
            auto session = std::make_shared<Session>(*this, std::move(socket), who);
            if (peer && admit_(peer->uid)) {
                session->read();
            } else {
                ++refused_;
                report_refusal_(who);
                session->refuse();
            }
        }
        accept();
    });
}

} // namespace burst

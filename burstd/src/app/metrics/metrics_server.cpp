#include "app/metrics/metrics_server.hpp"

#include "app/metrics/metrics_http.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/ip/address_v4.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include <array>
#include <chrono>
#include <stdexcept>

namespace burst {

namespace asio = boost::asio;
using asio::ip::tcp;

class MetricsServer::Session : public std::enable_shared_from_this<Session> {
public:
    Session(MetricsServer& server, tcp::socket socket)
        : server_(server), alive_(server.alive_), socket_(std::move(socket)), timer_(socket_.get_executor())
    {
    }

    void start()
    {
        auto self = shared_from_this();
        timer_.expires_after(std::chrono::seconds(kRequestTimeoutSeconds));
        timer_.async_wait([this, self](boost::system::error_code ec) {
            if (!ec) {
                boost::system::error_code ignored;
                socket_.close(ignored);
            }
        });
        read();
    }

private:
    void read()
    {
        auto self = shared_from_this();
        socket_.async_read_some(asio::buffer(chunk_), [this, self](boost::system::error_code ec, std::size_t n) {
            if (alive_.expired() || ec)
                return;
            head_.append(chunk_.data(), n);
            auto end = head_.find("\r\n\r\n");
            if (end == std::string::npos && head_.size() <= kMaxMetricsRequestHead) {
                read();
                return;
            }
            MetricsHttpReply r = end == std::string::npos || end + 4 > kMaxMetricsRequestHead
                                     ? metrics_http_too_large()
                                     : metrics_http_reply(head_.substr(0, end + 4), server_.render_);
            respond(std::move(r.text));
        });
    }

    void respond(std::string text)
    {
        auto self = shared_from_this();
        reply_ = std::move(text);
        asio::async_write(socket_, asio::buffer(reply_), [this, self](boost::system::error_code, std::size_t) {
            boost::system::error_code ignored;
            socket_.shutdown(tcp::socket::shutdown_both, ignored);
            socket_.close(ignored);
            timer_.cancel();
        });
    }

    MetricsServer& server_;
    std::weak_ptr<int> alive_;
    tcp::socket socket_;
    asio::steady_timer timer_;
    std::array<char, 2048> chunk_;
    std::string head_;
    std::string reply_;
};

MetricsServer::MetricsServer(asio::io_context& io, std::uint16_t port, Renderer render)
    : acceptor_(io), render_(std::move(render))
{
    tcp::endpoint where(asio::ip::address_v4::loopback(), port);
    boost::system::error_code ec;
    acceptor_.open(where.protocol(), ec);
    if (!ec)
        acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
    if (!ec)
        acceptor_.bind(where, ec);
    if (!ec)
        acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec)
        throw std::runtime_error("MetricsPort=" + std::to_string(port) + ": cannot listen on 127.0.0.1:" +
                                 std::to_string(port) + ": " + ec.message());
    port_ = acceptor_.local_endpoint().port();
    accept();
}

MetricsServer::~MetricsServer()
{
    alive_.reset();
    boost::system::error_code ignored;
    acceptor_.close(ignored);
}

void MetricsServer::accept()
{
    std::weak_ptr<int> alive = alive_;
    acceptor_.async_accept([this, alive](boost::system::error_code ec, tcp::socket socket) {
        if (alive.expired() || ec == asio::error::operation_aborted)
            return;
        if (!ec)
            std::make_shared<Session>(*this, std::move(socket))->start();
        accept();
    });
}

} // namespace burst

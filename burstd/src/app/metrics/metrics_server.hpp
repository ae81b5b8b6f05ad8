#pragma once
// Prometheus scrape endpoint: HTTP/1.1 on 127.0.0.1:MetricsPort, served from
// burstd's io_context (metrics_http.hpp decides the replies).  One request per
// connection; a client that sends no complete request head within
// kRequestTimeout is dropped, so idle sockets cannot pile up.

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace burst {

class MetricsServer {
public:
    using Renderer = std::function<std::string()>;
    static constexpr int kRequestTimeoutSeconds = 5;

    // Binds 127.0.0.1:port (0 = any free port, see port()); throws
    // std::runtime_error naming the port when it cannot.
    MetricsServer(boost::asio::io_context& io, std::uint16_t port, Renderer render);
    ~MetricsServer();
    MetricsServer(const MetricsServer&) = delete;
    MetricsServer& operator=(const MetricsServer&) = delete;

    std::uint16_t port() const { return port_; }

private:
    class Session;
    void accept();

    boost::asio::ip::tcp::acceptor acceptor_;
    Renderer render_;
    std::uint16_t port_ = 0;
    std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

} // namespace burst

#pragma once
// burstctl's door into burstd (ControlSocket): admits peers by SO_PEERCRED
// (root and SlurmUser), reads one JSON request per line (bounded), and writes
// back the handler's one-line JSON reply.

#include "ingest/line_framer.hpp"
#include "ingest/peer_credentials.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace burst {

class ControlServer {
public:
    // Returns the reply line (without newline) for one request line.
    using Handler = std::function<std::string(const std::string& request, const PeerCredentials& peer)>;
    // Called for every refused peer, to be logged.
    using RefusalReporter = std::function<void(const PeerCredentials& peer)>;

    static constexpr std::size_t kMaxRequestBytes = 1 << 20;

    ControlServer(boost::asio::io_context& io, const std::string& path, std::function<bool(uid_t)> admit,
                  Handler handler, RefusalReporter refused);
    ~ControlServer();
    ControlServer(const ControlServer&) = delete;
    ControlServer& operator=(const ControlServer&) = delete;

    std::uint64_t requests() const { return requests_; }
    std::uint64_t refused() const { return refused_; }

private:
    class Session;
    void accept();

    boost::asio::local::stream_protocol::acceptor acceptor_;
    std::function<bool(uid_t)> admit_;
    Handler handler_;
    RefusalReporter report_refusal_;
    std::uint64_t requests_ = 0;
    std::uint64_t refused_ = 0;
    std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

} // namespace burst

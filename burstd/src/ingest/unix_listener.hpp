#pragma once
// Binds a UNIX stream socket at a path, replacing a stale socket file left by
// a crashed burstd but refusing to clobber anything that is not a socket.
// Peers are admitted by SO_PEERCRED, so the file itself is world-connectable.

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>

#include <string>

namespace burst {

// Throws std::runtime_error naming the path and the reason.
boost::asio::local::stream_protocol::acceptor listen_unix(boost::asio::io_context& io, const std::string& path);

} // namespace burst

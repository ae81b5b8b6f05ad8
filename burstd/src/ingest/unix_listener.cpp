#include "ingest/unix_listener.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace burst {

boost::asio::local::stream_protocol::acceptor listen_unix(boost::asio::io_context& io, const std::string& path)
{
    using boost::asio::local::stream_protocol;
    struct stat st {};
    if (lstat(path.c_str(), &st) == 0) {
        if (!S_ISSOCK(st.st_mode))
            throw std::runtime_error(path + ": exists and is not a socket; refusing to replace it");
        // A socket something still accepts on is another daemon's (another
        // burstd with other StateDir, same socket paths): not stale.
        stream_protocol::socket probe(io);
        boost::system::error_code in_use;
        probe.connect(stream_protocol::endpoint(path), in_use);
        if (!in_use)
            throw std::runtime_error(path + ": another process is listening on it; refusing to replace it");
        if (unlink(path.c_str()) != 0)
            throw std::runtime_error(path + ": cannot remove stale socket: " + std::strerror(errno));
    }
    stream_protocol::acceptor acceptor(io);
    boost::system::error_code ec;
    acceptor.open(stream_protocol(), ec);
    if (!ec)
        acceptor.bind(stream_protocol::endpoint(path), ec);
    if (!ec)
        acceptor.listen(boost::asio::socket_base::max_listen_connections, ec);
    if (ec)
        throw std::runtime_error(path + ": cannot listen: " + ec.message());
    chmod(path.c_str(), 0666);
    return acceptor;
}

} // namespace burst

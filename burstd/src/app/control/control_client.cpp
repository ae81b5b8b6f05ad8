#include "app/control/control_client.hpp"

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace burst {

namespace {

class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd()
    {
        if (fd_ >= 0)
            ::close(fd_);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

// Milliseconds left until `deadline`, at least 0.
int remaining(std::chrono::steady_clock::time_point deadline)
{
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    return left.count() > 0 ? int(left.count()) : 0;
}

} // namespace

ControlExchange exchange_control(const std::string& socket_path, const std::string& request_line,
                                 std::chrono::milliseconds timeout)
{
    ControlExchange out;
    auto deadline = std::chrono::steady_clock::now() + timeout;
    sockaddr_un addr{};
    if (socket_path.size() >= sizeof addr.sun_path) {
        out.error = socket_path + ": path too long for a UNIX socket";
        return out;
    }
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, socket_path.c_str(), socket_path.size() + 1);
    Fd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    if (fd.get() < 0) {
        out.error = std::string("socket: ") + std::strerror(errno);
        return out;
    }
    if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 && errno != EINPROGRESS) {
        out.not_running = errno == ENOENT || errno == ECONNREFUSED;
        out.error = "cannot connect to " + socket_path + ": " + std::strerror(errno);
        return out;
    }
    std::string pending = request_line + "\n";
    std::size_t sent = 0;
    std::string received;
    while (true) {
        pollfd p{fd.get(), short(sent < pending.size() ? POLLOUT : POLLIN), 0};
        int ready = ::poll(&p, 1, remaining(deadline));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0) {
            out.error = "no reply from burstd on " + socket_path + " within " + std::to_string(timeout.count()) + " ms";
            return out;
        }
        if (sent < pending.size()) {
            ssize_t n = ::send(fd.get(), pending.data() + sent, pending.size() - sent, MSG_NOSIGNAL);
            if (n < 0 && (errno == EPIPE || errno == ECONNRESET)) {
                // burstd may refuse and hang up before reading: its reason is still readable.
                sent = pending.size();
                continue;
            }
            if (n < 0 && errno != EAGAIN && errno != EINTR) {
                out.error = std::string("sending to burstd: ") + std::strerror(errno);
                return out;
            }
            sent += n > 0 ? std::size_t(n) : 0;
            continue;
        }
        char buf[4096];
        ssize_t n = ::recv(fd.get(), buf, sizeof buf, 0);
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            continue;
        if (n <= 0) {
            out.error = n == 0 ? "burstd closed the connection without a reply"
                               : std::string("reading from burstd: ") + std::strerror(errno);
            return out;
        }
        received.append(buf, std::size_t(n));
        std::size_t nl = received.find('\n');
        if (nl != std::string::npos) {
            out.reply = received.substr(0, nl);
            return out;
        }
    }
}

} // namespace burst

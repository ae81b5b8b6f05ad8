#include "app/service_notifier.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace burst {

namespace {

// The address and its length: an abstract name has no terminating NUL and
// its length is exactly the bytes used, or the kernel looks up another name.
struct NotifyAddress {
    sockaddr_un addr{};
    socklen_t length = 0;
};

NotifyAddress parse_address(const std::string& socket)
{
    NotifyAddress a;
    a.addr.sun_family = AF_UNIX;
    const bool abstract = !socket.empty() && socket[0] == '@';
    if (socket.empty() || (!abstract && socket[0] != '/') || (abstract && socket.size() == 1))
        throw std::invalid_argument("NOTIFY_SOCKET=" + socket +
                                    ": neither an absolute path nor '@' and an abstract socket name");
    if (socket.size() >= sizeof a.addr.sun_path)
        throw std::invalid_argument("NOTIFY_SOCKET=" + socket + ": longer than a UNIX socket address (" +
                                    std::to_string(sizeof a.addr.sun_path - 1) + " bytes)");
    std::memcpy(a.addr.sun_path, socket.data(), socket.size());
    if (abstract)
        a.addr.sun_path[0] = '\0';
    a.length = socklen_t(offsetof(sockaddr_un, sun_path) + socket.size() + (abstract ? 0 : 1));
    return a;
}

} // namespace

ServiceNotifier::ServiceNotifier(const std::string& socket, std::optional<std::chrono::microseconds> watchdog)
    : socket_(socket), watchdog_(watchdog)
{
    parse_address(socket_);
    fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0)
        throw std::runtime_error("NOTIFY_SOCKET=" + socket_ + ": socket: " + std::strerror(errno));
}

ServiceNotifier::~ServiceNotifier()
{
    if (fd_ >= 0)
        ::close(fd_);
}

ServiceNotifier::ServiceNotifier(ServiceNotifier&& other) noexcept
    : socket_(std::move(other.socket_)), fd_(other.fd_), watchdog_(other.watchdog_)
{
    other.fd_ = -1;
}

ServiceNotifier& ServiceNotifier::operator=(ServiceNotifier&& other) noexcept
{
    if (this != &other) {
        if (fd_ >= 0)
            ::close(fd_);
        socket_ = std::move(other.socket_);
        fd_ = other.fd_;
        watchdog_ = other.watchdog_;
        other.fd_ = -1;
    }
    return *this;
}

ServiceNotifier ServiceNotifier::from_environment(std::string& error)
{
    error.clear();
    auto take = [](const char* name) -> std::optional<std::string> {
        const char* v = std::getenv(name);
        std::optional<std::string> value = v ? std::optional<std::string>(v) : std::nullopt;
        ::unsetenv(name);
        return value;
    };
    std::optional<std::string> socket = take("NOTIFY_SOCKET");
    std::optional<std::string> usec = take("WATCHDOG_USEC");
    std::optional<std::string> pid = take("WATCHDOG_PID");
    if (!socket)
        return ServiceNotifier();

    std::optional<std::chrono::microseconds> watchdog;
    // Pings meant for another process (WATCHDOG_PID) are not ours to send.
    const bool ours = !pid || *pid == std::to_string(::getpid());
    if (usec && ours) {
        char* end = nullptr;
        errno = 0;
        unsigned long long n = std::strtoull(usec->c_str(), &end, 10);
        if (usec->empty() || *end != '\0' || errno != 0 || n == 0 || (*usec)[0] == '-')
            error = "WATCHDOG_USEC=" + *usec + ": not a positive number of microseconds; sending no watchdog pings";
        else
            watchdog = std::chrono::microseconds(n > 1 ? n / 2 : 1);
    }
    try {
        return ServiceNotifier(*socket, watchdog);
    } catch (const std::exception& e) {
        error = e.what();
        return ServiceNotifier();
    }
}

bool ServiceNotifier::notify(const std::string& state, std::string* error) const
{
    if (fd_ < 0) {
        if (error)
            *error = "no NOTIFY_SOCKET";
        return false;
    }
    NotifyAddress a = parse_address(socket_);
    ssize_t n;
    while ((n = ::sendto(fd_, state.data(), state.size(), MSG_NOSIGNAL, reinterpret_cast<const sockaddr*>(&a.addr),
                         a.length)) < 0 &&
           errno == EINTR) {
    }
    if (n == ssize_t(state.size()))
        return true;
    if (error)
        *error = "NOTIFY_SOCKET=" + socket_ + ": " + (n < 0 ? std::strerror(errno) : "short write");
    return false;
}

} // namespace burst

#include "app/service_notifier.hpp"

#include "scratch_dir.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

// What systemd listens on: a datagram socket at a path, or at an abstract
// name when `name` starts with '@'.
class Listener {
public:
    explicit Listener(const std::string& name)
    {
        fd_ = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        CHECK_TRUE(fd_ >= 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        std::memcpy(addr.sun_path, name.data(), name.size());
        bool abstract = name[0] == '@';
        if (abstract)
            addr.sun_path[0] = '\0';
        socklen_t len = socklen_t(offsetof(sockaddr_un, sun_path) + name.size() + (abstract ? 0 : 1));
        CHECK_EQUAL_TEXT(0, bind(fd_, reinterpret_cast<sockaddr*>(&addr), len), std::strerror(errno));
    }
    ~Listener() { close(fd_); }
    Listener(const Listener&) = delete;
    Listener& operator=(const Listener&) = delete;

    // The next datagram, or "(nothing)" after a second.
    std::string receive()
    {
        pollfd p{fd_, POLLIN, 0};
        if (poll(&p, 1, 1000) != 1)
            return "(nothing)";
        char buf[512];
        ssize_t n = recv(fd_, buf, sizeof buf, 0);
        return n < 0 ? "(error)" : std::string(buf, std::size_t(n));
    }

private:
    int fd_ = -1;
};

std::string invalid(const std::string& socket)
{
    try {
        ServiceNotifier n(socket);
        return "";
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
}

struct Env {
    ~Env()
    {
        unsetenv("NOTIFY_SOCKET");
        unsetenv("WATCHDOG_USEC");
        unsetenv("WATCHDOG_PID");
    }
};

} // namespace

TEST_GROUP(ServiceNotifier){};

TEST(ServiceNotifier, WithoutASocketNothingIsSent)
{
    Env env;
    unsetenv("NOTIFY_SOCKET");
    setenv("WATCHDOG_USEC", "1000000", 1);
    std::string error = "stale";
    ServiceNotifier n = ServiceNotifier::from_environment(error);
    STRCMP_EQUAL("", error.c_str());
    CHECK_FALSE(n.enabled());
    CHECK_FALSE(n.watchdog_interval().has_value());
    std::string why;
    CHECK_FALSE(n.notify("READY=1", &why));
    STRCMP_EQUAL("no NOTIFY_SOCKET", why.c_str());
}

TEST(ServiceNotifier, SendsReadyToASocketPath)
{
    test::ScratchDir scratch("burst-notify");
    Listener systemd(scratch.file("notify"));
    ServiceNotifier n(scratch.file("notify"));
    CHECK_TRUE(n.enabled());
    CHECK_TRUE(n.notify("READY=1\nSTATUS=listening"));
    STRCMP_EQUAL("READY=1\nSTATUS=listening", systemd.receive().c_str());
}

TEST(ServiceNotifier, SendsToAnAbstractSocket)
{
    std::string name = "@slurm-burst-test-" + std::to_string(getpid());
    Listener systemd(name);
    ServiceNotifier n(name);
    CHECK_TRUE(n.notify("READY=1"));
    STRCMP_EQUAL("READY=1", systemd.receive().c_str());
}

TEST(ServiceNotifier, TakesTheEnvironmentAndUnsetsItForChildren)
{
    Env env;
    test::ScratchDir scratch("burst-notify");
    Listener systemd(scratch.file("notify"));
    setenv("NOTIFY_SOCKET", scratch.file("notify").c_str(), 1);
    setenv("WATCHDOG_USEC", "3000000", 1);
    setenv("WATCHDOG_PID", std::to_string(getpid()).c_str(), 1);
    std::string error;
    ServiceNotifier n = ServiceNotifier::from_environment(error);
    STRCMP_EQUAL("", error.c_str());
    CHECK_TRUE(n.enabled());
    CHECK_TRUE(n.watchdog_interval().has_value());
    LONGS_EQUAL(1500000, n.watchdog_interval()->count());
    CHECK_TRUE(getenv("NOTIFY_SOCKET") == nullptr);
    CHECK_TRUE(getenv("WATCHDOG_USEC") == nullptr);
    CHECK_TRUE(getenv("WATCHDOG_PID") == nullptr);
    CHECK_TRUE(n.notify("WATCHDOG=1"));
    STRCMP_EQUAL("WATCHDOG=1", systemd.receive().c_str());
}

TEST(ServiceNotifier, PingsMeantForAnotherPidAreNotOurs)
{
    Env env;
    test::ScratchDir scratch("burst-notify");
    setenv("NOTIFY_SOCKET", scratch.file("notify").c_str(), 1);
    setenv("WATCHDOG_USEC", "3000000", 1);
    setenv("WATCHDOG_PID", std::to_string(getpid() + 1).c_str(), 1);
    std::string error;
    ServiceNotifier n = ServiceNotifier::from_environment(error);
    CHECK_TRUE(n.enabled());
    CHECK_FALSE(n.watchdog_interval().has_value());
}

TEST(ServiceNotifier, ABadWatchdogIntervalIsReportedByName)
{
    Env env;
    test::ScratchDir scratch("burst-notify");
    setenv("NOTIFY_SOCKET", scratch.file("notify").c_str(), 1);
    setenv("WATCHDOG_USEC", "soon", 1);
    std::string error;
    ServiceNotifier n = ServiceNotifier::from_environment(error);
    STRCMP_EQUAL("WATCHDOG_USEC=soon: not a positive number of microseconds; sending no watchdog pings",
                 error.c_str());
    CHECK_TRUE(n.enabled());
    CHECK_FALSE(n.watchdog_interval().has_value());
}

TEST(ServiceNotifier, ABadSocketAddressIsRefusedByName)
{
    Env env;
    STRCMP_EQUAL("NOTIFY_SOCKET=run/notify: neither an absolute path nor '@' and an abstract socket name",
                 invalid("run/notify").c_str());
    STRCMP_EQUAL("NOTIFY_SOCKET=@: neither an absolute path nor '@' and an abstract socket name",
                 invalid("@").c_str());
    std::string long_path = "/" + std::string(200, 'x');
    CHECK_TRUE(invalid(long_path).find("NOTIFY_SOCKET=" + long_path + ": longer than a UNIX socket address") == 0);
    setenv("NOTIFY_SOCKET", "vsock:2:1234", 1);
    std::string error;
    ServiceNotifier n = ServiceNotifier::from_environment(error);
    CHECK_FALSE(n.enabled());
    STRCMP_EQUAL("NOTIFY_SOCKET=vsock:2:1234: neither an absolute path nor '@' and an abstract socket name",
                 error.c_str());
}

TEST(ServiceNotifier, ASocketNobodyListensOnIsAFailedSendNamingIt)
{
    test::ScratchDir scratch("burst-notify");
    ServiceNotifier n(scratch.file("gone"));
    std::string why;
    CHECK_FALSE(n.notify("READY=1", &why));
    STRCMP_EQUAL(("NOTIFY_SOCKET=" + scratch.file("gone") + ": No such file or directory").c_str(), why.c_str());
}

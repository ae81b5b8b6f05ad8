#pragma once
// systemd's service notification protocol (sd_notify(3)) without libsystemd:
// one datagram of newline-separated KEY=VALUE lines to the AF_UNIX socket
// $NOTIFY_SOCKET names, a path or, after a leading '@', a name in the
// abstract namespace.  Under Type=notify systemd counts burstd started when
// READY=1 arrives, and with WatchdogSec= restarts it when WATCHDOG=1 stops.

#include <chrono>
#include <optional>
#include <string>

namespace burst {

class ServiceNotifier {
public:
    // Sends nothing: burstd was not started by a service manager.
    ServiceNotifier() = default;
    // `socket` as $NOTIFY_SOCKET gives it.  Throws std::invalid_argument
    // naming the address when it is neither an absolute path nor '@' plus a
    // name, or is too long for a UNIX socket address.
    explicit ServiceNotifier(const std::string& socket,
                             std::optional<std::chrono::microseconds> watchdog = std::nullopt);
    ~ServiceNotifier();
    ServiceNotifier(ServiceNotifier&& other) noexcept;
    ServiceNotifier& operator=(ServiceNotifier&& other) noexcept;
    ServiceNotifier(const ServiceNotifier&) = delete;
    ServiceNotifier& operator=(const ServiceNotifier&) = delete;

    // From NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID, which it then
    // unsets: the slurmds the local provider starts must not speak for
    // burstd.  A value it cannot use leaves that part off and is described
    // in `error` (naming the variable and its value); otherwise `error` is
    // emptied.
    static ServiceNotifier from_environment(std::string& error);

    bool enabled() const { return fd_ >= 0; }
    const std::string& socket() const { return socket_; }
    // How often to send WATCHDOG=1: half of $WATCHDOG_USEC, as sd_notify(3)
    // advises; nothing when systemd expects no pings.
    std::optional<std::chrono::microseconds> watchdog_interval() const { return watchdog_; }

    // Sends `state`, e.g. "READY=1\nSTATUS=listening".  Returns whether the
    // datagram went out (always false when !enabled()); on failure `error`
    // (when given) says why.
    bool notify(const std::string& state, std::string* error = nullptr) const;

private:
    std::string socket_;
    int fd_ = -1;
    std::optional<std::chrono::microseconds> watchdog_;
};

} // namespace burst

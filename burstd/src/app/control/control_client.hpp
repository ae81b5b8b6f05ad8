#pragma once
// burstctl's half of the control socket: one request line out, one reply line
// back, all within a deadline, so a Slurm ResumeProgram never hangs.

#include <chrono>
#include <optional>
#include <string>

namespace burst {

struct ControlExchange {
    std::optional<std::string> reply; // the reply line without its newline
    std::string error;                // why there is no reply
    bool not_running = false;         // nobody listens at the socket
};

ControlExchange exchange_control(const std::string& socket_path, const std::string& request_line,
                                 std::chrono::milliseconds timeout);

} // namespace burst

#pragma once
// A decoded plugin -> burstd message (doc/protocol.md, version 1).

#include "model/clock.hpp"
#include "model/job.hpp"
#include "model/snapshot.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace burst {

constexpr int kProtocolVersion = 1;
constexpr std::size_t kMaxMessageBytes = std::size_t(64) << 20;

struct Hello {
    std::string plugin_version;
    std::string slurm_version;
};

struct ProtocolMessage {
    std::string type;    // "hello", "snapshot" or "job_end"
    std::string cluster;
    std::uint64_t seq = 0;
    Time time = 0;
    std::variant<Hello, Snapshot, JobEnd> body;
};

struct ParsedMessage {
    std::optional<ProtocolMessage> message;
    std::string error; // set when !message: "snapshot seq 12: jobs[3].cpus: expected integer"
};

} // namespace burst

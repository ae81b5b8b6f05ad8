#pragma once
// A decoded plugin -> burstd message (doc/protocol.md, versions 1 and 2).

#include "model/clock.hpp"
#include "model/job.hpp"
#include "model/node.hpp"
#include "model/partition.hpp"
#include "model/share.hpp"
#include "model/snapshot.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace burst {

// The highest protocol version this burstd reads; it reads every lower one.
constexpr int kProtocolVersion = 2;
// The version that brought deltas and resync requests.
constexpr int kDeltaProtocolVersion = 2;
constexpr std::size_t kMaxMessageBytes = std::size_t(64) << 20;

struct Hello {
    std::string plugin_version;
    std::string slurm_version;
    bool sends_deltas = false; // its `versions` hold kDeltaProtocolVersion
};

// What the state after a delta must add up to.
struct SnapshotCheck {
    std::uint64_t jobs = 0;
    std::uint64_t nodes = 0;
    std::uint64_t partitions = 0;
    std::uint64_t shares = 0;
    std::uint64_t job_sum = 0; // doc/protocol.md: job fingerprints summed, low 53 bits
};

// What changed since the snapshot or delta whose seq is `base`.
struct SnapshotDelta {
    std::uint64_t base = 0;
    std::vector<Job> jobs; // new or changed beyond their priority, whole
    std::vector<std::pair<JobId, std::uint32_t>> priorities;
    std::vector<JobId> removed_jobs;
    std::vector<Node> nodes;
    std::vector<std::string> removed_nodes;
    std::vector<Partition> partitions;
    std::vector<std::string> removed_partitions;
    // Shares are not keyed (a user's associations in several partitions share
    // account and user): when any changed, all of them, replacing the state's.
    std::optional<std::vector<Share>> shares;
    SnapshotCheck check;
};

struct ProtocolMessage {
    std::string type;    // "hello", "snapshot", "delta" or "job_end"
    std::string cluster;
    std::uint64_t seq = 0;
    Time time = 0;
    // Which plugin connection it came on (SnapshotServer numbers them from
    // 1); a delta applies only to the state its own connection built.
    std::uint64_t connection = 0;
    std::variant<Hello, Snapshot, SnapshotDelta, JobEnd> body;
};

struct ParsedMessage {
    std::optional<ProtocolMessage> message;
    std::string error; // set when !message: "snapshot seq 12: jobs[3].cpus: expected integer"
};

} // namespace burst

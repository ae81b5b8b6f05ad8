#pragma once
// The cluster state burstd decides on, as the plugin describes it: a whole
// snapshot, then the deltas that follow it on the same connection, applied
// in place (doc/protocol.md, version 2).  A delta that does not fit — its
// base is not the state's last message, it names a job the state lacks, or
// the state it leads to fails the delta's check — drops the state: burstd
// then has none until the next whole snapshot, rather than one it knows is
// wrong.

#include "ingest/protocol_message.hpp"
#include "model/snapshot.hpp"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace burst {

// doc/protocol.md's job_sum over jobs.
std::uint64_t job_fingerprint_sum(const std::vector<Job>& jobs);

class SnapshotAssembler {
public:
    // The state becomes `whole`, built on `connection`.
    void replace(Snapshot&& whole, std::uint64_t connection);

    // Applies the delta of message `seq` from `connection` to the state.
    // Returns "" when it fits; otherwise drops the state and returns why
    // ("base 41 is not the state's last message 40").  A delta from a newer
    // connection than the state's drops it too (a newer state exists); one
    // from an older connection, still buffered when the plugin reconnected,
    // is refused and leaves the state alone.
    std::string apply(SnapshotDelta&& delta, std::uint64_t seq, Time time, std::uint64_t connection);

    // Null while there is no complete state.
    const Snapshot* state() const { return complete_ ? &state_ : nullptr; }
    std::uint64_t connection() const { return connection_; }

private:
    std::string apply_in_place(SnapshotDelta& delta);
    void index();
    void drop();

    Snapshot state_;
    bool complete_ = false;
    std::uint64_t connection_ = 0;
    std::unordered_map<JobId, std::size_t> job_at_;
    std::unordered_map<std::string, std::size_t> node_at_;
    std::unordered_map<std::string, std::size_t> partition_at_;
};

} // namespace burst

#pragma once
// A recorded plugin stream (one message per line, as burstd received them:
// burstsim --snapshots, the decision-parity check) read back as burstd
// reads it live: each hello starts a connection, each whole snapshot and
// each delta that fits leaves a whole state, and a delta that does not fit
// leaves none until the next whole snapshot — burstd decides nothing then.

#include "ingest/protocol_message.hpp"
#include "ingest/snapshot_assembler.hpp"

#include <cstddef>
#include <string>

namespace burst {

class RecordedStream {
public:
    // The whole state `message` leaves, for a snapshot or a delta that fits;
    // null for any other message and for a delta that does not fit
    // (refused() says why).  `message` may be moved from.
    const Snapshot* feed(ProtocolMessage& message);

    const std::string& refused() const { return refused_; }
    std::size_t refused_deltas() const { return refused_deltas_; }

private:
    SnapshotAssembler state_;
    std::uint64_t connection_ = 0;
    std::string refused_;
    std::size_t refused_deltas_ = 0;
};

} // namespace burst

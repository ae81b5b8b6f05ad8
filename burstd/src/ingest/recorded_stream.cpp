#include "ingest/recorded_stream.hpp"

#include <utility>
#include <variant>

namespace burst {

const Snapshot* RecordedStream::feed(ProtocolMessage& message)
{
    refused_.clear();
    if (std::holds_alternative<Hello>(message.body) || connection_ == 0)
        ++connection_;
    if (auto* whole = std::get_if<Snapshot>(&message.body)) {
        state_.replace(std::move(*whole), connection_);
        return state_.state();
    }
    if (auto* delta = std::get_if<SnapshotDelta>(&message.body)) {
        refused_ = state_.apply(std::move(*delta), message.seq, message.time, connection_);
        if (refused_.empty())
            return state_.state();
        ++refused_deltas_;
    }
    return nullptr;
}

} // namespace burst

#include "ingest/line_framer.hpp"

namespace burst {

void LineFramer::feed(std::string_view bytes, const std::function<void(std::string_view)>& on_line,
                      const std::function<void(std::size_t)>& on_oversized)
{
    while (!bytes.empty()) {
        std::size_t nl = bytes.find('\n');
        std::string_view part = bytes.substr(0, nl);
        if (skipping_) {
            skipped_ += part.size();
        } else if (buffer_.size() + part.size() > max_line_) {
            skipping_ = true;
            skipped_ = buffer_.size() + part.size();
            buffer_.clear();
            buffer_.shrink_to_fit();
        } else {
            buffer_.append(part);
        }
        if (nl == std::string_view::npos)
            return;
        bytes.remove_prefix(nl + 1);
        if (skipping_) {
            skipping_ = false;
            on_oversized(skipped_);
        } else {
            on_line(buffer_);
            buffer_.clear();
        }
    }
}

} // namespace burst

#pragma once
// Cuts a byte stream into newline-terminated lines with a bound on the bytes
// buffered: a line longer than the bound is skipped up to its newline and
// reported, and the stream carries on with the next line.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace burst {

class LineFramer {
public:
    explicit LineFramer(std::size_t max_line) : max_line_(max_line) {}

    // Calls on_line for every complete line (without '\n'), and on_oversized
    // with the length of every line that exceeded the bound.
    void feed(std::string_view bytes, const std::function<void(std::string_view)>& on_line,
              const std::function<void(std::size_t)>& on_oversized);

    std::size_t buffered() const { return buffer_.size(); }

private:
    std::size_t max_line_;
    std::string buffer_;
    bool skipping_ = false;
    std::size_t skipped_ = 0;
};

} // namespace burst

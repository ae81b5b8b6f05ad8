#pragma once
// Opens a trace file and hands it to the parser its format names.

#include "sim/trace.hpp"

#include <stdexcept>
#include <string>

namespace burst {

class TraceError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// `format` is "swf", "sacct" or "auto" (a first non-blank line with a '|' →
// sacct, else swf).
// Throws TraceError when the file cannot be read or the format is unknown.
// `kept_problems`: how many problems keep their text (all are counted).
Trace load_trace(const std::string& path, const std::string& format,
                 std::size_t kept_problems = TraceReport::kKeptProblems);

} // namespace burst

#pragma once
// Opens a trace file and hands it to the parser its format names.

#include "sim/trace/trace.hpp"

#include <string>

namespace burst {

// `format` is "swf", "sacct" or "auto" (a first non-blank line with a '|' →
// sacct, unless it is a ';' comment; else swf).
// Throws TraceError when the file cannot be read (a directory says so), the
// format is unknown, a sacct file's header lacks a required column, or more
// of its records are malformed than are read (a file of another format, or
// damaged) unless `skip_malformed`, which replays what could be read.
// `kept_problems`: how many problems keep their text (all are counted).
Trace load_trace(const std::string& path, const std::string& format,
                 std::size_t kept_problems = TraceReport::kKeptProblems, bool skip_malformed = false);

} // namespace burst

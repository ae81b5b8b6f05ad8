#pragma once
// Standard Workload Format (Parallel Workloads Archive, SWF 2.2): 18
// whitespace-separated numeric fields per job, `;` comment lines, header
// comments such as `; MaxProcs: 100` and `; UnixStartTime: 843480031`.

#include "sim/trace/trace.hpp"

#include <istream>
#include <string>

namespace burst {

// Reads every line of `in`; `source` names the input in problems.
//
// Per the SWF definition: cpus are the allocated processors (field 5), else
// the requested ones (field 8); the runtime is field 4; the requested time
// (field 9) is the time limit; ids become names ("u12", account "g3" from the
// group id, else the user's).  Submit times are relative to the log start, so
// with an UnixStartTime header they become epoch seconds.  A trace whose first
// record's submit time is over 10 years carries epoch times: they are kept,
// and checked against the header's UnixStartTime (else the first record's
// submit) as relative times are against 0.  Records that name
// no runnable job (no run time, no processors, partial-execution lines,
// cancelled before starting) are counted as unusable.  -1 is the only
// "missing" value: another negative run time, requested time, processor
// count, status or id is malformed, as are fractional processor counts,
// status and ids, and a status outside 0..5.
// `kept_problems`: how many problems keep their text (all are counted).
Trace parse_swf(std::istream& in, const std::string& source,
                std::size_t kept_problems = TraceReport::kKeptProblems);

} // namespace burst

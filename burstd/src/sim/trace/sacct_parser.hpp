#pragma once
// Slurm accounting history as `sacct --parsable2` prints it.  Produce it with
//
//   sacct -a -X -P -S 2024-01-01 -E 2024-02-01
//     --format=JobIDRaw,Account,User,Submit,Eligible,Start,End,AllocCPUS,ReqCPUS,Timelimit,State,JobName,Partition
//
// (one command line).
//
// The first line must be sacct's header.  Columns may come in any order;
// JobIDRaw, Account, User, Submit, Start, End, AllocCPUS, ReqCPUS, Timelimit
// and State are required (parse_sacct throws TraceError when one is missing:
// no line can be read), JobName, Partition and Eligible are optional.  With
// Eligible, a job enters the replay when it became eligible (after its
// dependencies, --begin or a hold), not at Submit.  Job steps (ids
// with a '.', present without -X) are skipped and counted.  State must be
// one of sacct's job states.  Times are
// local time, as sacct prints them: they are read in the zone TZ names (run
// burstsim with the TZ sacct ran with, or run sacct with TZ=UTC and burstsim
// with TZ=UTC).  A time in the hour repeated when DST ends is read as its
// earlier instant, unless that puts Submit, Start and End out of order.

#include "sim/trace/trace.hpp"

#include <istream>
#include <string>

namespace burst {

// `kept_problems`: how many problems keep their text (all are counted).
Trace parse_sacct(std::istream& in, const std::string& source,
                  std::size_t kept_problems = TraceReport::kKeptProblems);

// Which instant a wall-clock time in the hour repeated when DST ends names.
enum class RepeatedHour { kEarlier, kLater };

// "YYYY-MM-DDTHH:MM:SS", local time in the zone TZ names, as epoch seconds;
// false when malformed.  In the repeated hour, `reading` picks the instant.
bool parse_slurm_timestamp(const std::string& text, Time& out, RepeatedHour reading = RepeatedHour::kEarlier);

} // namespace burst

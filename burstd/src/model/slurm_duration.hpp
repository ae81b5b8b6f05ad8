#pragma once
// Slurm's time limits as sacct prints them and slurm.conf takes them
// (a job's Timelimit, a partition's MaxTime).

#include "model/clock.hpp"

#include <string_view>

namespace burst {

// "M", "M:S", "H:M:S", "D-H", "D-H:M", "D-H:M:S"; "UNLIMITED", "INFINITE"
// (in any case, as Slurm reads them), "-1" and sacct's "Partition_Limit"
// are 0 (none).  Returns false when the text
// is none of these, or names a limit longer than Slurm can hold (2^32 - 3
// minutes).
bool parse_slurm_duration(std::string_view text, Seconds& out);

} // namespace burst

#pragma once

#include "model/clock.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace burst {

struct Partition {
    std::string name;
    std::vector<std::string> nodes; // expanded node names
    bool up = true;
    bool is_default = false;
    Seconds max_time = 0; // 0 = unlimited
    std::uint32_t priority_tier = 1;
};

// Whether Slurm starts a job of time limit `time_limit` (0: none) in a
// partition of MaxTime `max_time` (0: none).
inline bool within_max_time(Seconds time_limit, Seconds max_time)
{
    return max_time == 0 || (time_limit > 0 && time_limit <= max_time);
}

} // namespace burst

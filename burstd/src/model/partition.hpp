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

} // namespace burst

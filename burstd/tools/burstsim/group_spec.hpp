#pragma once
// A node group written on one command-line word, as burstsim takes it:
//   name,cpus=8,price=0.40,boot=90[,max=20][,billing=second|hour][,min_billed=60]
//   [,speed=1.0][,partition=cloud][,spot=0.05][,jitter=0.1]
//   [,stockout=START-END;...][,stockout_rate=P]
//   [,capacity_errors=3][,cool_down=60][,max_cool_down=1800]
// price is per instance-hour, boot and min_billed in seconds; max is the
// group's quota in nodes (none without it: max_count 0); jitter spreads
// its boots uniformly over boot × (1 ± jitter) (else --boot-jitter's); spot makes the
// group spot capacity interrupted that many times per instance-hour;
// stockout and stockout_rate make its launches fail for capacity
// (CapacityShortage); the last three are burstd.conf's recovery keys
// CapacityErrors, CoolDown and MaxCoolDown, with their defaults.

#include "model/node_group.hpp"
#include "sim/engine/capacity_shortage.hpp"

#include <optional>
#include <stdexcept>
#include <string>

namespace burst {

class GroupSpecError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

struct GroupSpec {
    NodeGroup group;
    CapacityShortage shortage;
    std::optional<double> boot_jitter;
    Seconds max_time = 0; // its partition's MaxTime, 0 = none
};

// Throws GroupSpecError naming the bad key or value and what was expected.
GroupSpec parse_group_spec(const std::string& spec);

} // namespace burst

#pragma once
// A node group written on one command-line word, as burstsim takes it:
//   name,cpus=8,price=0.40,boot=90,max=20[,billing=second|hour][,min_billed=60]
//   [,speed=1.0][,partition=cloud][,spot=0.05]
// price is per instance-hour, boot and min_billed in seconds; spot makes the
// group spot capacity interrupted that many times per instance-hour.

#include "model/node_group.hpp"

#include <stdexcept>
#include <string>

namespace burst {

class GroupSpecError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// Throws GroupSpecError naming the bad key or value and what was expected.
NodeGroup parse_group_spec(const std::string& spec);

} // namespace burst

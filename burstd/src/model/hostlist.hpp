#pragma once
// Slurm hostlist expressions: "c[1-3,5],gpu[01-02],login" <-> node names.

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace burst {

class HostlistError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Expands an expression in Slurm's order (left to right, ranges ascending as
// written).  Throws HostlistError naming the offending part on bad syntax.
std::vector<std::string> expand_hostlist(std::string_view expr);

// The shortest expression Slurm would print for these names: names sharing a
// prefix and digit width collapse into one bracket, in first-seen order.
std::string compress_hostlist(const std::vector<std::string>& names);

} // namespace burst

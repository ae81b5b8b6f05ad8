#include "policy/expander/priority_expander.hpp"

namespace burst {

const ExpansionOption* PriorityExpander::choose(const std::vector<ExpansionOption>& options, std::uint64_t) const
{
    return options.empty() ? nullptr : &options.front();
}

} // namespace burst

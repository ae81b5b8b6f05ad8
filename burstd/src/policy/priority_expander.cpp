#include "policy/priority_expander.hpp"

namespace burst {

const GroupView* PriorityExpander::choose(const std::vector<const GroupView*>& candidates, std::uint64_t) const
{
    return candidates.empty() ? nullptr : candidates.front();
}

} // namespace burst

#pragma once
#include "policy/expander.hpp"

namespace burst {

// The first candidate in configured NodeGroup order: the site ranks its groups.
class PriorityExpander final : public Expander {
public:
    static constexpr std::string_view kName = "priority";
    std::string_view name() const override { return kName; }
    const GroupView* choose(const std::vector<const GroupView*>& candidates, std::uint64_t cpus) const override;
};

} // namespace burst

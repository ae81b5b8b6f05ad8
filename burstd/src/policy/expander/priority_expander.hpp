#pragma once
#include "policy/expander/expander.hpp"

namespace burst {

// The first option, i.e. the first group in configured NodeGroup order that
// can take the work: the site ranks its groups, whatever they cost.
class PriorityExpander final : public Expander {
public:
    static constexpr std::string_view kName = "priority";
    std::string_view name() const override { return kName; }
    const ExpansionOption* choose(const std::vector<ExpansionOption>& options, std::uint64_t cpus) const override;
};

} // namespace burst

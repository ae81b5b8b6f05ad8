#pragma once
#include "policy/expander/expander.hpp"

namespace burst {

// Fewest idle cores on the nodes the work would occupy; then the least
// quoted cost (at list price: cheapest per core).
class LeastWasteExpander final : public Expander {
public:
    static constexpr std::string_view kName = "least-waste";
    std::string_view name() const override { return kName; }
    const ExpansionOption* choose(const std::vector<ExpansionOption>& options, std::uint64_t cpus) const override;
};

} // namespace burst

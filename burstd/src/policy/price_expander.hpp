#pragma once
#include "policy/expander.hpp"

namespace burst {

// Cheapest per core-second; then least waste.
class PriceExpander final : public Expander {
public:
    static constexpr std::string_view kName = "price";
    std::string_view name() const override { return kName; }
    const GroupView* choose(const std::vector<const GroupView*>& candidates, std::uint64_t cpus) const override;
};

} // namespace burst

#pragma once
#include "policy/expander/expander.hpp"

namespace burst {

// Cheapest list price per core-second, whatever the policy quoted (a site
// that wants its cheap group used first, warm cores elsewhere or not); then
// the least quoted cost; then least waste.
class PriceExpander final : public Expander {
public:
    static constexpr std::string_view kName = "price";
    std::string_view name() const override { return kName; }
    const ExpansionOption* choose(const std::vector<ExpansionOption>& options, std::uint64_t cpus) const override;
};

} // namespace burst

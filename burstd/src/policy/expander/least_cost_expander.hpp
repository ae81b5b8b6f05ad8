#pragma once
#include "policy/expander/expander.hpp"

namespace burst {

// The least quoted cost: with a policy that forecasts the bill (forecast,
// predictive), warm cores on a dear group can beat new nodes on a cheap
// one.  Equal cost: the first offered (configured group order), as those
// policies chose before they asked an expander; breaking ties by readiness
// instead made no consistent difference (doc/policies.md, "Expanders").
class LeastCostExpander final : public Expander {
public:
    static constexpr std::string_view kName = "least-cost";
    std::string_view name() const override { return kName; }
    const ExpansionOption* choose(const std::vector<ExpansionOption>& options, std::uint64_t cpus) const override;
};

} // namespace burst

#pragma once
#include "policy/expander/expander.hpp"

namespace burst {

// The least quoted cost: with a policy that forecasts the bill (forecast,
// predictive), warm cores on a dear group can beat new nodes on a cheap
// one.  Equal cost: the first offered (configured group order), as those
// policies chose before they asked an expander.  Breaking such ties by
// readiness instead (a warm group over a booting one) changed forecast's
// J by -0.05% to +0.1% on HPC2N, KTH and NASA replayed against two groups
// of equal price per effective core-second, with no consistent sign: not
// worth changing their decisions for.
class LeastCostExpander final : public Expander {
public:
    static constexpr std::string_view kName = "least-cost";
    std::string_view name() const override { return kName; }
    const ExpansionOption* choose(const std::vector<ExpansionOption>& options, std::uint64_t cpus) const override;
};

} // namespace burst

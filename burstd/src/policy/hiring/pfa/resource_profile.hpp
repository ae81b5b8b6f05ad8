#pragma once
// PFA's resource profile (Ilyushkin et al., §3.3.1 step 2 and §3.3.3): how
// many nodes of each group one account's budget buys at the throughput
// ratios, then scaled down to the predicted demand or inflated towards it.

#include <cstdint>
#include <vector>

namespace burst {

struct ProfileGroup {
    double cost = 0;            // q_i: one node for one budget interval
    std::uint32_t cpus = 1;
    std::uint32_t capacity = 0; // nodes the group can have at most
};

// Eqs. 10-11: ν_i = q_i ρ_i / Σ q_r ρ_r, μ̂_i = ⌊b ν_i / q_i⌋.  Free groups
// (cost 0) are bounded by their capacity only.
std::vector<std::uint32_t> budget_profile(double budget, const std::vector<double>& rho,
                                          const std::vector<ProfileGroup>& groups);

// §3.3.3 in cores: when the profile's cores exceed σ, eq. 18 scales every
// count by σ / cores (rounding up); when they fall short, inflate: (ii) add
// the cheapest groups' nodes (all but the dearest) with the budget left,
// then (iii) trade one node of a dearer group for as many of the next
// cheaper one as its cost buys, while that adds cores, until σ is reached.
// Counts never exceed a group's capacity nor the cost the budget.
std::vector<std::uint32_t> fit_to_demand(std::vector<std::uint32_t> profile, double demand_cores, double budget,
                                         const std::vector<ProfileGroup>& groups);

} // namespace burst

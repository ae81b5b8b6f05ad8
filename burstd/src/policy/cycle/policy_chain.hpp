#pragma once
// The policy chain as a site configures it: burstd.conf's Policy= lines, in
// order, read by burstd and burstsim alike.

#include "common/param_map.hpp"
#include "policy/policy.hpp"

#include <memory>
#include <string>
#include <vector>

namespace burst {

// One link: the policy's registered name and its parameters.
struct PolicySpec {
    std::string name;
    ParamMap params;
    std::string origin; // "burstd.conf:12", prefixed to the link's errors
};

using PolicyChain = std::vector<std::unique_ptr<Policy>>;

// A link whose policy does not build adds its error, prefixed with the
// link's origin, to `errors` (every such link, for --check-config) and is
// left out.
PolicyChain make_policy_chain(const std::vector<PolicySpec>& specs, std::vector<std::string>& errors);

} // namespace burst

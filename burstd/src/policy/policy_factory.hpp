#pragma once
// Maps a configured policy name to its implementation.

#include "policy/policy.hpp"
#include "policy/policy_params.hpp"

#include <memory>
#include <string>
#include <vector>

namespace burst {

// Throws PolicyConfigError for an unknown name (listing the known ones), a bad
// parameter value, or a parameter the policy does not have.
std::unique_ptr<Policy> make_policy(const std::string& name, PolicyParams params);
std::vector<std::string> policy_names();
// Whether policy `name` (a known one) has parameter `key`, e.g. "lambda":
// burstsim passes its own λ to the policies that optimize for one.
bool policy_has_parameter(const std::string& name, const std::string& key);
// The keys of `params` that policy `name` (a known one) reads when built
// with them (a policy may read a key only for some value of another);
// throws PolicyConfigError on a bad value.
std::vector<std::string> policy_reads(const std::string& name, PolicyParams params);
// Whether policy `name` (a known one) has a "lambda" parameter that is off
// unless given (an optional cost gate, as in threshold and boot-window)
// rather than one it always optimizes for.
bool policy_lambda_is_gate(const std::string& name);

} // namespace burst

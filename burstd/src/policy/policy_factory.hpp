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

} // namespace burst

#pragma once
// The hiring policies burstd and burstsim can run: one table, from which the
// factory, the known names, the "unknown policy" error and --list-policies
// all derive.

#include "common/registry.hpp"
#include "policy/policy.hpp"
#include "policy/policy_params.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace burst {

// A policy parameter that applies only when another has a given value
// (ParameterDoc::key applies with only_with, e.g. "metric=queue").
struct PolicyParameter : ParameterDoc {
    std::string_view only_with;
};

struct PolicyType {
    std::string_view name;
    std::string_view description;
    std::unique_ptr<Policy> (*build)(PolicyParams& params);
    std::vector<PolicyParameter> parameters; // every key build() may read
};

const Registry<PolicyType>& policy_registry();

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

// The --list-policies text: every policy, its description and parameters,
// then the expanders.
std::string policy_listing();

} // namespace burst

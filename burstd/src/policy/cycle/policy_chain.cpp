#include "policy/cycle/policy_chain.hpp"

#include "policy/policy_registry.hpp"

#include <map>

namespace burst {

PolicyChain make_policy_chain(const std::vector<PolicySpec>& specs, std::vector<std::string>& errors)
{
    PolicyChain chain;
    for (const auto& spec : specs) {
        try {
            chain.push_back(make_policy(
                spec.name, PolicyParams(std::map<std::string, std::string>(spec.params.begin(), spec.params.end()))));
        } catch (const PolicyConfigError& e) {
            errors.push_back(spec.origin + ": Policy=" + spec.name + ": " + e.what());
        }
    }
    return chain;
}

} // namespace burst

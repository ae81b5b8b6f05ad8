#pragma once
// Every hiring policy set to route whatever it may, and a decision's notes:
// for the tests that a policy routes and hires only where Slurm could start
// the job (node_needs_routing_test.cpp, max_time_routing_test.cpp).

#include "policy/decision.hpp"
#include "policy/policy_registry.hpp"

#include <memory>
#include <string>

namespace burst::test {

inline std::unique_ptr<Policy> hiring_policy(const std::string& name)
{
    PolicyParams p;
    if (policy_has_parameter(name, "lambda") && !policy_lambda_is_gate(name))
        p.set("lambda", "100"); // waiting is dear: bursting pays for whoever may burst
    if (name == "threshold")
        p.set("target_utilization", "1"); // no headroom: it hires for waiting work only
    return make_policy(name, p);
}

// Whether some note of the decision contains `text`.
inline bool mentions(const Decision& d, const std::string& text)
{
    for (const auto& n : d.notes)
        if (n.find(text) != std::string::npos)
            return true;
    return false;
}

} // namespace burst::test

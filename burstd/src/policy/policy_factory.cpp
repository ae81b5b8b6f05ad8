#include "policy/policy_factory.hpp"

#include "common/config_values.hpp"

#include "policy/hiring/always/always_policy.hpp"
#include "policy/hiring/boot_window/boot_window_policy.hpp"
#include "policy/hiring/fixed_delay/fixed_delay_policy.hpp"
#include "policy/hiring/forecast/forecast_policy.hpp"
#include "policy/hiring/never/never_policy.hpp"
#include "policy/hiring/pfa/pfa_policy.hpp"
#include "policy/hiring/predictive/predictive_policy.hpp"
#include "policy/hiring/threshold/threshold_policy.hpp"

#include <cmath>

namespace burst {
namespace {

template <class P>
std::unique_ptr<Policy> build(PolicyParams& params)
{
    return std::make_unique<P>(params);
}

std::unique_ptr<Policy> construct(const std::string& name, PolicyParams& params);

} // namespace

std::vector<std::string> policy_names()
{
    return {std::string(NeverPolicy::kName), std::string(AlwaysPolicy::kName), std::string(ThresholdPolicy::kName),
            std::string(BootWindowPolicy::kName), std::string(PredictivePolicy::kName),
            std::string(FixedDelayPolicy::kName), std::string(PfaPolicy::kName),
            std::string(ForecastPolicy::kName)};
}

std::unique_ptr<Policy> make_policy(const std::string& name, PolicyParams params)
{
    auto policy = construct(name, params);
    params.reject_unread(name);
    return policy;
}

bool policy_has_parameter(const std::string& name, const std::string& key)
{
    PolicyParams defaults;
    construct(name, defaults);
    return defaults.was_read(key);
}

std::vector<std::string> policy_reads(const std::string& name, PolicyParams params)
{
    construct(name, params);
    std::vector<std::string> read;
    for (const auto& entry : params.values())
        if (params.was_read(entry.first))
            read.push_back(entry.first);
    return read;
}

bool policy_lambda_is_gate(const std::string& name)
{
    PolicyParams defaults;
    construct(name, defaults);
    return defaults.was_read("lambda") && std::isinf(defaults.double_fallback("lambda"));
}

namespace {

std::unique_ptr<Policy> construct(const std::string& name, PolicyParams& params)
{
    if (name == NeverPolicy::kName)
        return build<NeverPolicy>(params);
    if (name == AlwaysPolicy::kName)
        return build<AlwaysPolicy>(params);
    if (name == ThresholdPolicy::kName)
        return build<ThresholdPolicy>(params);
    if (name == BootWindowPolicy::kName)
        return build<BootWindowPolicy>(params);
    if (name == PredictivePolicy::kName)
        return build<PredictivePolicy>(params);
    if (name == FixedDelayPolicy::kName)
        return build<FixedDelayPolicy>(params);
    if (name == PfaPolicy::kName)
        return build<PfaPolicy>(params);
    if (name == ForecastPolicy::kName)
        return build<ForecastPolicy>(params);
    throw PolicyConfigError("unknown policy '" + name + "' (known: " + joined(policy_names()) + ")");
}

} // namespace

} // namespace burst

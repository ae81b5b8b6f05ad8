#include "provider/budgeted_transport.hpp"

namespace burst {

std::shared_ptr<ThrottledTransport> budgeted_transport(HttpTransport& api, const ProviderKeys& keys,
                                                       const std::string& region, const RequestLimits& defaults,
                                                       ThrottleRules rules, const ProviderEnvironment& env)
{
    auto budget = env.budgets.get(keys.spec().name, region, keys.request_limits(defaults), env.clock);
    return std::make_shared<ThrottledTransport>(api, std::move(budget), std::move(rules), env.sleep);
}

} // namespace burst

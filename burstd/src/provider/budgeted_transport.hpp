#pragma once
// What every cloud type's builder does to put its API calls behind the
// provider's request budget: the section's budget keys over the cloud's
// documented defaults, the budget registered under the provider's name (so
// burstd exports its counters), and a ThrottledTransport over `api`.

#include "provider/http/throttled_transport.hpp"
#include "provider/provider_environment.hpp"
#include "provider/provider_keys.hpp"

#include <memory>
#include <string>

namespace burst {

// `api` must outlive the result.  `region`: the scope the cloud throttles
// in, for the metrics' region label.
std::shared_ptr<ThrottledTransport> budgeted_transport(HttpTransport& api, const ProviderKeys& keys,
                                                       const std::string& region, const RequestLimits& defaults,
                                                       ThrottleRules rules, const ProviderEnvironment& env);

} // namespace burst

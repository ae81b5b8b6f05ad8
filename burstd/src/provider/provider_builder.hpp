#pragma once
// The one signature every provider type builds itself with, from its
// Provider= section, what every provider of the burstd shares, and the
// daemon's run-time environment.  Builders read credentials files and check
// every key, send nothing, and throw ProviderConfigError prefixed with the
// section's origin.

#include "provider/provider.hpp"
#include "provider/provider_environment.hpp"
#include "provider/provider_keys.hpp"
#include "provider/provider_spec.hpp"

#include <memory>

namespace burst {

using ProviderBuilder = std::unique_ptr<Provider> (*)(const ProviderSpec& spec, const ProviderSite& site,
                                                      const ProviderEnvironment& env);

} // namespace burst

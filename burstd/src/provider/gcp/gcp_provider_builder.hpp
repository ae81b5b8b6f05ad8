#pragma once
#include "provider/provider_builder.hpp"

#include <string>
#include <vector>

namespace burst {

// Type=gcp: Google Compute Engine.
std::unique_ptr<Provider> build_gcp_provider(const ProviderSpec& spec, const ProviderSite& site,
                                             const ProviderEnvironment& env);
std::vector<std::string> gcp_provider_keys();

} // namespace burst

#pragma once
#include "provider/provider_builder.hpp"

#include <string>
#include <vector>

namespace burst {

// Type=azure: Azure Resource Manager virtual machines.
std::unique_ptr<Provider> build_azure_provider(const ProviderSpec& spec, const ProviderSite& site,
                                               const ProviderEnvironment& env);
std::vector<std::string> azure_provider_keys();

} // namespace burst

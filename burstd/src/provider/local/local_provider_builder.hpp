#pragma once
#include "provider/provider_builder.hpp"

#include <string>
#include <vector>

namespace burst {

// Type=local: a node is a slurmd process started on this machine.
std::unique_ptr<Provider> build_local_provider(const ProviderSpec& spec, const ProviderSite& site,
                                               const ProviderEnvironment& env);
std::vector<std::string> local_provider_keys();

} // namespace burst

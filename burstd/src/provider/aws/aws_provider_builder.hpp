#pragma once
#include "provider/provider_builder.hpp"

#include <string>
#include <vector>

namespace burst {

// Type=aws: Amazon EC2 through its Query API, signed with SigV4.
std::unique_ptr<Provider> build_aws_provider(const ProviderSpec& spec, const ProviderSite& site,
                                             const ProviderEnvironment& env);
std::vector<std::string> aws_provider_keys();

} // namespace burst

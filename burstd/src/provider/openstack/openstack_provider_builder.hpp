#pragma once
#include "provider/provider_builder.hpp"

#include <string>
#include <vector>

namespace burst {

// Type=openstack: OpenStack Nova, authenticated by Keystone.
std::unique_ptr<Provider> build_openstack_provider(const ProviderSpec& spec, const ProviderSite& site,
                                                   const ProviderEnvironment& env);
std::vector<std::string> openstack_provider_keys();

} // namespace burst

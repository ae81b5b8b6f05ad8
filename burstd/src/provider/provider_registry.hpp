#pragma once
// The provider types this burstd can build: one entry per type, each built
// by the builder in its own folder.

#include "common/registry.hpp"
#include "provider/provider_builder.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace burst {

struct ProviderType {
    std::string_view name; // Type= in burstd.conf
    std::string_view description;
    ProviderBuilder build;
    std::vector<std::string> (*keys)(); // the type's own keys, checked by its builder
};

const Registry<ProviderType>& provider_registry();

// Builds `spec`'s type; throws ProviderConfigError prefixed with the
// section's origin for an unknown type or anything its builder rejects.
std::unique_ptr<Provider> make_provider(const ProviderSpec& spec, const ProviderSite& site,
                                        const ProviderEnvironment& env);

} // namespace burst

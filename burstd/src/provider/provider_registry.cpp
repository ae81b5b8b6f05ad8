#include "provider/provider_registry.hpp"

#include "provider/aws/aws_provider_builder.hpp"
#include "provider/azure/azure_provider_builder.hpp"
#include "provider/gcp/gcp_provider_builder.hpp"
#include "provider/local/local_provider_builder.hpp"
#include "provider/openstack/openstack_provider_builder.hpp"

namespace burst {

const Registry<ProviderType>& provider_registry()
{
    static const Registry<ProviderType> registry(
        "provider type",
        {
            {"local", "slurmd processes started on this machine, for trying burstd without a cloud",
             build_local_provider, local_provider_keys},
            {"aws", "Amazon EC2 through its Query API, signed with SigV4", build_aws_provider, aws_provider_keys},
            {"gcp", "Google Compute Engine", build_gcp_provider, gcp_provider_keys},
            {"azure", "Azure Resource Manager virtual machines", build_azure_provider, azure_provider_keys},
            {"openstack", "OpenStack Nova, authenticated by Keystone", build_openstack_provider,
             openstack_provider_keys},
        });
    return registry;
}

std::unique_ptr<Provider> make_provider(const ProviderSpec& spec, const ProviderSite& site,
                                        const ProviderEnvironment& env)
{
    const ProviderType* type = provider_registry().find(spec.type);
    if (!type)
        throw ProviderConfigError(spec.origin + ": Provider=" + spec.name + ": Type=" + spec.type +
                                  " is not available in this burstd; known types: " +
                                  joined(provider_registry().names()));
    return type->build(spec, site, env);
}

} // namespace burst

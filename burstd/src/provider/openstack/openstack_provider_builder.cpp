#include "provider/openstack/openstack_provider_builder.hpp"

#include "provider/openstack/openstack_credentials.hpp"
#include "provider/openstack/openstack_provider.hpp"
#include "provider/openstack/openstack_settings.hpp"
#include "provider/http/curl_transport.hpp"
#include "provider/owning_provider.hpp"

namespace burst {

std::vector<std::string> openstack_provider_keys() { return with_transport_keys(openstack_settings_keys()); }

std::unique_ptr<Provider> build_openstack_provider(const ProviderSpec& spec, const ProviderSite&,
                                                   const ProviderEnvironment& env)
{
    ProviderKeys keys(spec, openstack_provider_keys());
    keys.require_credentials_file();
    const CurlRequestOptions http = keys.transport_options();
    try {
        OpenStackSettings s = openstack_settings_from_params(keys.cloud_params(), spec.region);
        OpenStackCredentials credentials = load_openstack_credentials(spec.credentials_file);
        auto transport = std::make_shared<CurlTransport>(env.http, http.timeouts, http.ca_file);
        auto nova = std::make_unique<OpenStackProvider>(*transport, std::move(credentials), std::move(s), env.clock,
                                                        env.sleep);
        return std::make_unique<OwningProvider>(std::vector<std::shared_ptr<void>>{transport}, std::move(nova));
    } catch (const std::runtime_error& e) { // credentials file
        keys.fail(e.what());
    } catch (const OpenStackSettingsError& e) {
        keys.fail(e.what());
    }
}

} // namespace burst

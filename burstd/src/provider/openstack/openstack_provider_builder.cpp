#include "provider/openstack/openstack_provider_builder.hpp"

#include "provider/budgeted_transport.hpp"
#include "provider/http/curl_transport.hpp"
#include "provider/openstack/openstack_credentials.hpp"
#include "provider/openstack/openstack_error.hpp"
#include "provider/openstack/openstack_provider.hpp"
#include "provider/openstack/openstack_settings.hpp"
#include "provider/owning_provider.hpp"

namespace burst {

namespace {

// Nova documents no request limit of its own (clouds put one in front of
// the API, if any): a default that a small cloud's API servers take in
// their stride, to be raised to the operator's published limits.
const RequestLimits kNovaRequestLimits{{10, 20}, {2, 10}};

} // namespace

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
        const std::string region = s.region;
        // Keystone's token requests go through the budget too: one per token
        // lifetime, against the same cloud.
        auto budgeted =
            budgeted_transport(*transport, keys, region, kNovaRequestLimits, nova_throttle_rules(), env);
        auto nova = std::make_unique<OpenStackProvider>(*budgeted, std::move(credentials), std::move(s), env.clock,
                                                        env.sleep);
        return std::make_unique<OwningProvider>(std::vector<std::shared_ptr<void>>{transport, budgeted},
                                                std::move(nova));
    } catch (const std::runtime_error& e) { // credentials file
        keys.fail(e.what());
    } catch (const OpenStackSettingsError& e) {
        keys.fail(e.what());
    }
}

} // namespace burst

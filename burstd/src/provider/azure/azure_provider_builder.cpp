#include "provider/azure/azure_provider_builder.hpp"

#include "provider/azure/arm_error_classifier.hpp"
#include "provider/azure/azure_config.hpp"
#include "provider/azure/azure_credentials.hpp"
#include "provider/azure/azure_provider.hpp"
#include "provider/azure/client_credentials_token_source.hpp"
#include "provider/budgeted_transport.hpp"
#include "provider/http/curl_transport.hpp"
#include "provider/owning_provider.hpp"

namespace burst {

namespace {

// learn.microsoft.com/azure/azure-resource-manager/management/
// request-limits-and-throttling: per subscription and region, reads 250
// tokens refilled at 25/s, writes and deletes 200 refilled at 10/s each.
const RequestLimits kArmRequestLimits{{25, 250}, {10, 200}};

} // namespace

std::vector<std::string> azure_provider_keys() { return with_transport_keys(AzureProviderConfig::keys()); }

std::unique_ptr<Provider> build_azure_provider(const ProviderSpec& spec, const ProviderSite&,
                                               const ProviderEnvironment& env)
{
    ProviderKeys keys(spec, azure_provider_keys());
    keys.forbid_region();
    keys.require_credentials_file();
    const CurlRequestOptions http = keys.transport_options();
    try {
        AzureProviderConfig c = AzureProviderConfig::from_params(keys.cloud_params());
        AzureCredentials credentials = load_azure_credentials(spec.credentials_file);
        auto transport = std::make_shared<CurlTransport>(env.http, http.timeouts, http.ca_file);
        auto tokens = std::make_unique<ClientCredentialsTokenSource>(*transport, std::move(credentials), env.clock,
                                                                     c.login_origin);
        // Tokens come from Entra ID, which ARM's limits do not cover.
        auto budgeted =
            budgeted_transport(*transport, keys, c.location, kArmRequestLimits, arm_throttle_rules(), env);
        auto azure =
            std::make_unique<AzureProvider>(*budgeted, std::move(tokens), std::move(c), env.clock, env.sleep);
        return std::make_unique<OwningProvider>(std::vector<std::shared_ptr<void>>{transport, budgeted},
                                                std::move(azure));
    } catch (const std::runtime_error& e) { // credentials file
        keys.fail(e.what());
    } catch (const AzureConfigError& e) {
        keys.fail(e.what());
    }
}

} // namespace burst

#include "provider/gcp/gcp_provider_builder.hpp"

#include "provider/gcp/gce_provider.hpp"
#include "provider/gcp/gcp_config.hpp"
#include "provider/gcp/gcp_token_source_factory.hpp"
#include "provider/http/curl_transport.hpp"
#include "provider/owning_provider.hpp"

namespace burst {

std::vector<std::string> gcp_provider_keys() { return with_transport_keys(GcpProviderConfig::keys()); }

std::unique_ptr<Provider> build_gcp_provider(const ProviderSpec& spec, const ProviderSite&,
                                             const ProviderEnvironment& env)
{
    ProviderKeys keys(spec, gcp_provider_keys());
    keys.forbid_region();
    const CurlRequestOptions http = keys.transport_options();
    try {
        GcpProviderConfig c = GcpProviderConfig::from_params(keys.cloud_params());
        auto transport = std::make_shared<CurlTransport>(env.http, http.timeouts, http.ca_file);
        auto tokens = make_gcp_token_source(*transport, c, spec.credentials_file, env.clock);
        auto gce = std::make_unique<GceProvider>(*transport, std::move(tokens), std::move(c), env.clock, env.sleep);
        return std::make_unique<OwningProvider>(std::vector<std::shared_ptr<void>>{transport}, std::move(gce));
    } catch (const GcpConfigError& e) {
        keys.fail(e.what());
    }
}

} // namespace burst

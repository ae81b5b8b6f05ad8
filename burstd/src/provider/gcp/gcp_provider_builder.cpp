#include "provider/gcp/gcp_provider_builder.hpp"

#include "provider/budgeted_transport.hpp"
#include "provider/gcp/gce_error_classifier.hpp"
#include "provider/gcp/gce_provider.hpp"
#include "provider/gcp/gcp_config.hpp"
#include "provider/gcp/gcp_token_source_factory.hpp"
#include "provider/http/curl_transport.hpp"
#include "provider/owning_provider.hpp"

namespace burst {

namespace {

// cloud.google.com/compute/api-quota: per project, 1,500 requests a minute
// in each group (mutating "Queries", read, list, operation read), counted
// in whole minutes.  A burst of 300 plus 20/s (1,200 a minute) stays within
// 1,500 in any minute.
const RequestLimits kGceRequestLimits{{20, 300}, {20, 300}};

} // namespace

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
        // OAuth tokens come from another service with limits of its own.
        auto tokens = make_gcp_token_source(*transport, c, spec.credentials_file, env.clock);
        // Rate quotas are per project, not per region.
        auto budgeted = budgeted_transport(*transport, keys, "global", kGceRequestLimits, gce_throttle_rules(), env);
        auto gce = std::make_unique<GceProvider>(*budgeted, std::move(tokens), std::move(c), env.clock, env.sleep);
        return std::make_unique<OwningProvider>(std::vector<std::shared_ptr<void>>{transport, budgeted},
                                                std::move(gce));
    } catch (const GcpConfigError& e) {
        keys.fail(e.what());
    }
}

} // namespace burst

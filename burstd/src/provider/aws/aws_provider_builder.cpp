#include "provider/aws/aws_provider_builder.hpp"

#include "provider/aws/credential_chain.hpp"
#include "provider/aws/ec2_client.hpp"
#include "provider/aws/ec2_error_classifier.hpp"
#include "provider/aws/ec2_provider.hpp"
#include "provider/aws/ec2_provider_settings.hpp"
#include "provider/aws/environment_lookup.hpp"
#include "provider/budgeted_transport.hpp"
#include "provider/cloud/secret_file.hpp"
#include "provider/http/curl_transport.hpp"
#include "provider/owning_provider.hpp"

namespace burst {

namespace {

// docs.aws.amazon.com/ec2/latest/devguide/ec2-api-throttling.html, per
// account and region: non-mutating actions 100 tokens refilled at 20/s,
// mutating actions 50 refilled at 5/s.
const RequestLimits kEc2RequestLimits{{20, 100}, {5, 50}};

} // namespace

std::vector<std::string> aws_provider_keys() { return with_transport_keys(ec2_provider_keys()); }

std::unique_ptr<Provider> build_aws_provider(const ProviderSpec& spec, const ProviderSite&,
                                             const ProviderEnvironment& env)
{
    ProviderKeys keys(spec, aws_provider_keys());
    Ec2ProviderSettings s;
    try {
        s = ec2_settings_from_params(spec.params, spec.region, spec.credentials_file);
        // The shared file is read on the first call; its protection is
        // checked now so that burstd does not start with a leaked secret.
        if (!s.credentials_file.empty())
            check_secret_file_mode(s.credentials_file);
    } catch (const std::exception& e) {
        keys.fail(e.what());
    }
    const CurlRequestOptions http = keys.transport_options();
    auto api = std::make_shared<CurlTransport>(env.http, http.timeouts, http.ca_file);
    // Instance metadata is plain HTTP on a link-local address: short timeouts,
    // no CA of ours.
    auto imds = std::make_shared<CurlTransport>(env.http, CurlTimeouts{1, 3});
    auto chain = std::make_shared<CredentialChain>(
        default_credential_sources(s.credential_environment(process_environment()), *imds), env.clock);
    auto budgeted = budgeted_transport(*api, keys, s.region, kEc2RequestLimits, ec2_throttle_rules(), env);
    auto client = std::make_shared<Ec2Client>(*budgeted, *chain, env.clock, s.region, s.endpoint);
    auto ec2 = std::make_unique<Ec2Provider>(*client, s.provider);
    return std::make_unique<OwningProvider>(
        std::vector<std::shared_ptr<void>>{api, budgeted, imds, chain, client}, std::move(ec2));
}

} // namespace burst

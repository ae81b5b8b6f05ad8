#include "provider/provider_factory.hpp"

#include "model/config_values.hpp"
#include "provider/aws/credential_chain.hpp"
#include "provider/aws/ec2_client.hpp"
#include "provider/aws/ec2_provider.hpp"
#include "provider/aws/ec2_provider_settings.hpp"
#include "provider/azure/azure_config.hpp"
#include "provider/azure/azure_credentials.hpp"
#include "provider/azure/azure_provider.hpp"
#include "provider/azure/client_credentials_token_source.hpp"
#include "provider/gcp/gce_provider.hpp"
#include "provider/gcp/gcp_config.hpp"
#include "provider/gcp/gcp_token_source_factory.hpp"
#include "provider/gcp/secret_file.hpp"
#include "provider/http/curl_transport.hpp"
#include "provider/local/local_provider.hpp"
#include "provider/openstack/openstack_credentials.hpp"
#include "provider/openstack/openstack_provider.hpp"
#include "provider/openstack/openstack_settings.hpp"
#include "provider/owning_provider.hpp"

#include <unistd.h>

namespace burst {

namespace {

// Keys of every cloud type: how its HTTPS connections are made.
const std::vector<std::string> kTransportKeys = {"CaFile", "ConnectTimeout", "RequestTimeout"};

std::vector<std::string> with_transport_keys(std::vector<std::string> keys)
{
    for (const auto& k : kTransportKeys) {
        bool have = false;
        for (const auto& known : keys)
            have = have || iequals(known, k);
        if (!have)
            keys.push_back(k);
    }
    return keys;
}

// Reads the keys one type knows; whatever is left over is rejected by name.
class ProviderKeys {
public:
    ProviderKeys(const ProviderConfig& provider, std::vector<std::string> known)
        : provider_(provider), known_(std::move(known))
    {
        for (const auto& [key, value] : provider.params) {
            bool found = false;
            for (const auto& k : known_)
                found = found || iequals(k, key);
            if (!found) {
                std::string hint = closest_match(key, known_);
                fail("unknown key " + key + "= for Type=" + provider.type +
                     (hint.empty() ? "" : " (did you mean " + hint + "?)") + "; known keys: " + joined(known_));
            }
        }
    }
    const std::string* get(const std::string& key) const
    {
        auto it = provider_.params.find(key);
        return it == provider_.params.end() ? nullptr : &it->second;
    }
    Seconds duration(const std::string& key, Seconds fallback) const
    {
        const std::string* v = get(key);
        if (!v)
            return fallback;
        auto d = parse_duration(*v);
        if (!d)
            fail(key + "=" + *v + ": expected a duration (e.g. 5, 5s, 2m)");
        return *d;
    }
    // The type's own keys, in the form the cloud config readers take.
    ProviderParams cloud_params() const
    {
        ProviderParams out;
        for (const auto& [key, value] : provider_.params) {
            bool transport = false;
            for (const auto& k : kTransportKeys)
                transport = transport || iequals(k, key);
            if (!transport)
                out.emplace_back(key, value);
        }
        return out;
    }
    // CaFile=, ConnectTimeout=, RequestTimeout=.
    CurlRequestOptions transport_options() const
    {
        CurlRequestOptions o;
        if (const auto* v = get("CaFile")) {
            if (v->empty() || v->front() != '/')
                fail("CaFile=" + *v + ": expected an absolute path to a PEM CA bundle");
            if (::access(v->c_str(), R_OK) != 0)
                fail("CaFile=" + *v + ": cannot be read");
            o.ca_file = *v;
        }
        o.timeouts.connect_seconds = whole_seconds("ConnectTimeout", o.timeouts.connect_seconds);
        o.timeouts.total_seconds = whole_seconds("RequestTimeout", o.timeouts.total_seconds);
        return o;
    }
    void forbid_region() const
    {
        if (!provider_.region.empty())
            fail("Type=" + provider_.type + " takes no Region= (" + region_instead() + ")");
    }
    void require_credentials_file() const
    {
        if (provider_.credentials_file.empty())
            fail("CredentialsFile= is required for Type=" + provider_.type);
    }
    [[noreturn]] void fail(const std::string& what) const
    {
        throw ProviderConfigError(provider_.origin + ": Provider=" + provider_.name + ": " + what);
    }

private:
    long whole_seconds(const std::string& key, long fallback) const
    {
        const Seconds s = duration(key, static_cast<Seconds>(fallback));
        if (s < 1 || s != static_cast<long>(s))
            fail(key + "=" + *get(key) + ": expected a whole number of seconds, at least 1");
        return static_cast<long>(s);
    }
    std::string region_instead() const
    {
        return provider_.type == "gcp" ? "the zones are Zone= or Zones=" : provider_.type == "azure" ? "the region is Location=" : "";
    }

    const ProviderConfig& provider_;
    std::vector<std::string> known_;
};

std::unique_ptr<Provider> make_local(const ProviderConfig& provider, const BurstdConfig& site)
{
    ProviderKeys keys(provider, {"SlurmdPath", "StateDir", "BootDelay", "TerminateGrace", "Address",
                                     "LaunchLatency", "TerminateLatency"});
    if (!provider.credentials_file.empty() || !provider.region.empty())
        keys.fail("Type=local takes no CredentialsFile= or Region=");
    LocalProviderConfig c;
    if (const auto* v = keys.get("SlurmdPath"))
        c.slurmd_path = *v;
    c.slurm_conf = site.slurm_conf;
    c.state_dir = site.state_dir + "/local-" + provider.name;
    if (const auto* v = keys.get("StateDir"))
        c.state_dir = *v;
    c.boot_delay = keys.duration("BootDelay", c.boot_delay);
    c.terminate_grace = keys.duration("TerminateGrace", c.terminate_grace);
    c.launch_latency = keys.duration("LaunchLatency", c.launch_latency);
    c.terminate_latency = keys.duration("TerminateLatency", c.terminate_latency);
    if (const auto* v = keys.get("Address"))
        c.address = *v;
    try {
        return std::make_unique<LocalProvider>(std::move(c));
    } catch (const LocalProviderConfigError& e) {
        keys.fail(e.what());
    }
}

std::unique_ptr<Provider> make_aws(const ProviderConfig& provider, const ProviderEnvironment& env)
{
    ProviderKeys keys(provider, with_transport_keys(ec2_provider_keys()));
    Ec2ProviderSettings s;
    try {
        s = ec2_settings_from_params(provider.params, provider.region, provider.credentials_file);
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
    auto client = std::make_shared<Ec2Client>(*api, *chain, env.clock, s.region, s.endpoint);
    auto ec2 = std::make_unique<Ec2Provider>(*client, s.provider);
    return std::make_unique<OwningProvider>(std::vector<std::shared_ptr<void>>{api, imds, chain, client},
                                            std::move(ec2));
}

std::unique_ptr<Provider> make_gcp(const ProviderConfig& provider, const ProviderEnvironment& env)
{
    ProviderKeys keys(provider, with_transport_keys(GcpProviderConfig::keys()));
    keys.forbid_region();
    const CurlRequestOptions http = keys.transport_options();
    try {
        GcpProviderConfig c = GcpProviderConfig::from_params(keys.cloud_params());
        auto transport = std::make_shared<CurlTransport>(env.http, http.timeouts, http.ca_file);
        auto tokens = make_gcp_token_source(*transport, c, provider.credentials_file, env.clock);
        auto gce = std::make_unique<GceProvider>(*transport, std::move(tokens), std::move(c), env.clock, env.sleep);
        return std::make_unique<OwningProvider>(std::vector<std::shared_ptr<void>>{transport}, std::move(gce));
    } catch (const GcpConfigError& e) {
        keys.fail(e.what());
    }
}

std::unique_ptr<Provider> make_azure(const ProviderConfig& provider, const ProviderEnvironment& env)
{
    ProviderKeys keys(provider, with_transport_keys(AzureProviderConfig::keys()));
    keys.forbid_region();
    keys.require_credentials_file();
    const CurlRequestOptions http = keys.transport_options();
    try {
        AzureProviderConfig c = AzureProviderConfig::from_params(keys.cloud_params());
        AzureCredentials credentials = load_azure_credentials(provider.credentials_file);
        auto transport = std::make_shared<CurlTransport>(env.http, http.timeouts, http.ca_file);
        auto tokens = std::make_unique<ClientCredentialsTokenSource>(*transport, std::move(credentials), env.clock,
                                                                     c.login_origin);
        auto azure =
            std::make_unique<AzureProvider>(*transport, std::move(tokens), std::move(c), env.clock, env.sleep);
        return std::make_unique<OwningProvider>(std::vector<std::shared_ptr<void>>{transport}, std::move(azure));
    } catch (const std::runtime_error& e) { // credentials file
        keys.fail(e.what());
    } catch (const AzureConfigError& e) {
        keys.fail(e.what());
    }
}

std::unique_ptr<Provider> make_openstack(const ProviderConfig& provider, const ProviderEnvironment& env)
{
    ProviderKeys keys(provider, with_transport_keys(openstack_settings_keys()));
    keys.require_credentials_file();
    const CurlRequestOptions http = keys.transport_options();
    try {
        OpenStackSettings s = openstack_settings_from_params(keys.cloud_params(), provider.region);
        OpenStackCredentials credentials = load_openstack_credentials(provider.credentials_file);
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

} // namespace

std::vector<std::string> provider_types() { return {std::string(LocalProvider::kName), "aws", "gcp", "azure", "openstack"}; }

std::unique_ptr<Provider> make_provider(const ProviderConfig& provider, const BurstdConfig& site,
                                        const ProviderEnvironment& env)
{
    if (provider.type == LocalProvider::kName)
        return make_local(provider, site);
    if (provider.type == "aws")
        return make_aws(provider, env);
    if (provider.type == GceProvider::kName)
        return make_gcp(provider, env);
    if (provider.type == AzureProvider::kName)
        return make_azure(provider, env);
    if (provider.type == "openstack")
        return make_openstack(provider, env);
    throw ProviderConfigError(provider.origin + ": Provider=" + provider.name + ": Type=" + provider.type +
                              " is not available in this burstd; known types: " + joined(provider_types()));
}

} // namespace burst

#pragma once
// The burstd.conf keys of a Provider= section with Type=aws, validated into
// what the EC2 client and provider are built from.  The provider factory
// calls ec2_settings_from_params after its own check that every key is one of
// ec2_provider_keys().

#include "common/param_map.hpp"
#include "provider/aws/ec2_provider_config.hpp"
#include "provider/aws/environment_lookup.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace burst {

class Ec2SettingsError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

struct Ec2ProviderSettings {
    std::string region;
    std::string endpoint;         // https://ec2.REGION.amazonaws.com unless Endpoint= says otherwise
    std::string profile;          // shared-file profile; empty = AWS_PROFILE or "default"
    std::string credentials_file; // shared credentials file; empty = AWS_SHARED_CREDENTIALS_FILE or ~/.aws/credentials
    std::string ca_file;          // PEM bundle for the endpoint; empty = the system's
    Ec2ProviderConfig provider;

    // The environment the credential chain reads, with Profile= and
    // CredentialsFile= taking the place of AWS_PROFILE and
    // AWS_SHARED_CREDENTIALS_FILE.
    EnvironmentLookup credential_environment(EnvironmentLookup base) const;
};

// Keys a Type=aws section may carry besides Region= and CredentialsFile=.
std::vector<std::string> ec2_provider_keys();

// `region` and `credentials_file` are the section's common Region= and
// CredentialsFile=.  Throws Ec2SettingsError naming the key and what was expected.
Ec2ProviderSettings ec2_settings_from_params(const ParamMap& params, const std::string& region,
                                             const std::string& credentials_file);

} // namespace burst

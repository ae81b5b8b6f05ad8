#pragma once
// Keys from the AWS CLI's shared files: the profile named by AWS_PROFILE
// (default "default") in AWS_SHARED_CREDENTIALS_FILE (~/.aws/credentials,
// section "[name]") and then AWS_CONFIG_FILE (~/.aws/config, section
// "[profile name]", or "[default]").  A file that supplies a secret must not
// be readable by group or others.

#include "provider/aws/credential_source.hpp"
#include "provider/aws/environment_lookup.hpp"

namespace burst {

class SharedFileCredentials final : public CredentialSource {
public:
    explicit SharedFileCredentials(EnvironmentLookup env);
    std::string_view name() const override { return "shared-files"; }
    std::optional<AwsCredentials> load() override;

private:
    EnvironmentLookup env_;
};

} // namespace burst

#pragma once
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and optional AWS_SESSION_TOKEN.

#include "provider/aws/credential_source.hpp"
#include "provider/aws/environment_lookup.hpp"

namespace burst {

class EnvironmentCredentials final : public CredentialSource {
public:
    explicit EnvironmentCredentials(EnvironmentLookup env);
    std::string_view name() const override { return "environment"; }
    std::optional<AwsCredentials> load() override;

private:
    EnvironmentLookup env_;
};

} // namespace burst

#pragma once
// The instance role's temporary keys from the EC2 instance metadata service,
// IMDSv2 only: PUT /latest/api/token, then GET the role name and its
// credentials with that token.  An unreachable or disabled IMDS, or an
// instance without a role, means "not configured"; a malformed answer from a
// reachable IMDS is an error.  No error quotes a response body: it holds keys.

#include "provider/aws/credential_source.hpp"
#include "provider/http/http_transport.hpp"

namespace burst {

class ImdsCredentials final : public CredentialSource {
public:
    // `endpoint` like "http://169.254.169.254" (AWS_EC2_METADATA_SERVICE_ENDPOINT).
    ImdsCredentials(HttpTransport& transport, std::string endpoint);
    std::string_view name() const override { return "instance-metadata"; }
    std::optional<AwsCredentials> load() override;

private:
    HttpTransport& transport_;
    std::string endpoint_;
};

} // namespace burst

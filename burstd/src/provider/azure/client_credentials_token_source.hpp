#pragma once
// Azure Resource Manager bearer tokens for a service principal through the
// OAuth 2.0 client-credentials grant at
// https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token, cached until
// shortly before expiry.

#include "model/clock.hpp"
#include "provider/azure/azure_credentials.hpp"
#include "provider/cloud/bearer_token_source.hpp"
#include "provider/http/http_transport.hpp"

namespace burst {

class ClientCredentialsTokenSource final : public BearerTokenSource {
public:
    static constexpr const char* kManagementScope = "https://management.azure.com/.default";

    static constexpr const char* kLoginOrigin = "https://login.microsoftonline.com";

    // `login_origin`: the Entra authority host (another cloud's, or a test server).
    ClientCredentialsTokenSource(HttpTransport& transport, AzureCredentials credentials, const Clock& clock,
                                 std::string login_origin = kLoginOrigin);

    std::string token(ProviderError& error) override;
    void invalidate() override { token_.clear(); }

private:
    HttpTransport& transport_;
    AzureCredentials credentials_;
    std::string login_origin_;
    const Clock& clock_;
    std::string token_;
    Time expires_at_ = 0;
};

} // namespace burst

#include "provider/azure/client_credentials_token_source.hpp"

#include "provider/cloud/uri_encoding.hpp"
#include "provider/cloud/oauth_token_response.hpp"

namespace burst {

ClientCredentialsTokenSource::ClientCredentialsTokenSource(HttpTransport& transport, AzureCredentials credentials,
                                                           const Clock& clock, std::string login_origin)
    : transport_(transport), credentials_(std::move(credentials)), login_origin_(std::move(login_origin)),
      clock_(clock)
{
}

std::string ClientCredentialsTokenSource::token(ProviderError& error)
{
    error = {};
    const Time now = clock_.now();
    if (!token_.empty() && now < expires_at_ - kTokenRenewMargin)
        return token_;
    HttpRequest req;
    req.origin = login_origin_;
    req.method = "POST";
    req.path = "/" + credentials_.tenant_id + "/oauth2/v2.0/token";
    req.headers = {{"Content-Type", "application/x-www-form-urlencoded"}, {"Accept", "application/json"}};
    req.body = "grant_type=client_credentials&client_id=" + uri_encode(credentials_.client_id) +
               "&client_secret=" + uri_encode(credentials_.client_secret) + "&scope=" + uri_encode(kManagementScope);
    const OAuthToken t = parse_oauth_token_response(transport_.perform(req),
                                                    "token for client " + credentials_.client_id, error);
    if (error)
        return "";
    token_ = t.access_token;
    expires_at_ = now + t.expires_in;
    return token_;
}

} // namespace burst

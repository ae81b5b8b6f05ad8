#include "provider/gcp/metadata_token_source.hpp"

#include "provider/cloud/oauth_token_response.hpp"

namespace burst {

MetadataTokenSource::MetadataTokenSource(HttpTransport& transport, const Clock& clock, std::string origin)
    : transport_(transport), clock_(clock), origin_(std::move(origin))
{
}

std::string MetadataTokenSource::token(ProviderError& error)
{
    error = {};
    const Time now = clock_.now();
    if (!token_.empty() && now < expires_at_ - kTokenRenewMargin)
        return token_;
    HttpRequest req;
    req.origin = origin_;
    req.method = "GET";
    req.path = "/computeMetadata/v1/instance/service-accounts/default/token";
    // The header proves the request is not a redirected browser fetch.
    req.headers = {{"Metadata-Flavor", "Google"}};
    const OAuthToken t = parse_oauth_token_response(transport_.perform(req), "metadata server token", error);
    if (error)
        return "";
    token_ = t.access_token;
    // The metadata server hands out the token it holds, which may be close to
    // expiry; caching at most until then keeps the renew margin meaningful.
    expires_at_ = now + t.expires_in;
    return token_;
}

} // namespace burst

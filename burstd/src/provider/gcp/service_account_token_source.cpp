#include "provider/gcp/service_account_token_source.hpp"

#include "common/json_ref.hpp"
#include "provider/cloud/uri_encoding.hpp"
#include "common/json_text.hpp"
#include "provider/cloud/oauth_token_response.hpp"
#include "provider/gcp/rs256_jwt.hpp"

#include <cmath>
#include <stdexcept>

namespace burst {

namespace {

constexpr Seconds kAssertionLifetime = 3600; // the longest Google accepts

// "https://oauth2.googleapis.com/token" -> origin + path.
void split_url(const std::string& url, std::string& origin, std::string& path)
{
    const auto host = url.find("://");
    const auto slash = url.find('/', host == std::string::npos ? 0 : host + 3);
    origin = url.substr(0, slash);
    path = slash == std::string::npos ? "/" : url.substr(slash);
}

} // namespace

ServiceAccountTokenSource::ServiceAccountTokenSource(HttpTransport& transport, ServiceAccountKey key,
                                                     const Clock& clock)
    : transport_(transport), key_(std::move(key)), clock_(clock)
{
}

std::string ServiceAccountTokenSource::assertion(Time now) const
{
    JsonRef header(json_pack("{s:s, s:s}", "alg", "RS256", "typ", "JWT"));
    if (!key_.private_key_id.empty())
        json_object_set_new(header.get(), "kid", json_string(key_.private_key_id.c_str()));
    const json_int_t iat = static_cast<json_int_t>(std::floor(now));
    JsonRef claims(json_pack("{s:s, s:s, s:s, s:I, s:I}", "iss", key_.client_email.c_str(), "scope", kComputeScope,
                             "aud", key_.token_uri.c_str(), "iat", iat,
                             "exp", iat + static_cast<json_int_t>(kAssertionLifetime)));
    return sign_rs256_jwt(json_text(header.get()), json_text(claims.get()), key_.private_key);
}

std::string ServiceAccountTokenSource::token(ProviderError& error)
{
    error = {};
    const Time now = clock_.now();
    if (!token_.empty() && now < expires_at_ - kTokenRenewMargin)
        return token_;
    HttpRequest req;
    split_url(key_.token_uri, req.origin, req.path);
    req.method = "POST";
    req.headers = {{"Content-Type", "application/x-www-form-urlencoded"}, {"Accept", "application/json"}};
    try {
        req.body = "grant_type=" + uri_encode("urn:ietf:params:oauth:grant-type:jwt-bearer") +
                   "&assertion=" + assertion(now);
    } catch (const std::runtime_error& e) {
        error = {ProviderErrorKind::Auth, std::string("service account ") + key_.client_email + ": " + e.what(), 0};
        return "";
    }
    const OAuthToken t =
        parse_oauth_token_response(transport_.perform(req), "token for " + key_.client_email, error);
    if (error)
        return "";
    token_ = t.access_token;
    expires_at_ = now + t.expires_in;
    return token_;
}

} // namespace burst

#pragma once
// OAuth access tokens for a service account: a JWT (iss = the account,
// scope, aud = token_uri, iat, exp = iat + 1 h) signed with the account's key
// and exchanged at token_uri with the jwt-bearer grant.

#include "model/clock.hpp"
#include "provider/cloud/bearer_token_source.hpp"
#include "provider/gcp/service_account_key.hpp"
#include "provider/http/http_transport.hpp"

namespace burst {

class ServiceAccountTokenSource final : public BearerTokenSource {
public:
    static constexpr const char* kComputeScope = "https://www.googleapis.com/auth/compute";

    ServiceAccountTokenSource(HttpTransport& transport, ServiceAccountKey key, const Clock& clock);

    std::string token(ProviderError& error) override;
    void invalidate() override { token_.clear(); }

    // The signed assertion for time `now` (exposed so tests can verify it).
    std::string assertion(Time now) const;

private:
    HttpTransport& transport_;
    ServiceAccountKey key_;
    const Clock& clock_;
    std::string token_;
    Time expires_at_ = 0;
};

} // namespace burst

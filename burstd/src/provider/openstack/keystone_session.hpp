#pragma once
// A Keystone v3 token and the compute endpoint from its catalog.  The token
// is cached until shortly before it expires; invalidate() forgets it (after
// Nova answered 401), so the next token() authenticates again.

#include "model/clock.hpp"
#include "provider/http/http_transport.hpp"
#include "provider/openstack/openstack_credentials.hpp"
#include "provider/openstack/service_url.hpp"
#include "provider/provider.hpp"

#include <string>

namespace burst {

class KeystoneSession {
public:
    KeystoneSession(HttpTransport& transport, OpenStackCredentials credentials, const Clock& clock,
                    std::string region, std::string interface);

    // A valid token, or "" with error set.
    std::string token(ProviderError& error);
    // The compute endpoint of the catalog that came with the current token.
    const ServiceUrl& compute_endpoint() const { return compute_; }
    void invalidate() { token_.clear(); }

    // POST /v3/auth/tokens as sent (the body holds the secret: never log it).
    HttpRequest auth_request() const;

private:
    ProviderError accept(const HttpResponse& response);

    HttpTransport& transport_;
    OpenStackCredentials credentials_;
    const Clock& clock_;
    std::string region_;
    std::string interface_;
    std::string token_;
    Time expires_at_ = 0;
    ServiceUrl compute_;
};

// "2014-08-10T19:15:57.096078Z" -> seconds since the epoch; -1 if malformed.
Time parse_keystone_time(const std::string& text);

} // namespace burst

#pragma once
// Where a provider gets the OAuth bearer token for its API calls.  A source
// caches its token until shortly before expiry; invalidate() forgets it
// (after the API answered 401) so the next call fetches a fresh one.

#include "provider/provider.hpp"

#include <string>

namespace burst {

class BearerTokenSource {
public:
    virtual ~BearerTokenSource() = default;
    // A valid token, or "" with error set (never containing a secret).
    virtual std::string token(ProviderError& error) = 0;
    virtual void invalidate() = 0;
};

// Tokens are renewed this long before they expire, so a request never
// arrives with one that lapsed in flight.
constexpr Seconds kTokenRenewMargin = 300;

} // namespace burst

#pragma once
// Reads an OAuth 2.0 token endpoint's answer ({"access_token", "expires_in",
// "token_type"}), the shape Google's token URI, the GCE metadata server and
// the Microsoft identity platform share.  expires_in may be a number or a
// numeric string (Azure sends strings).

#include "model/clock.hpp"
#include "provider/http/http_message.hpp"
#include "provider/provider.hpp"

#include <string>

namespace burst {

struct OAuthToken {
    std::string access_token;
    Seconds expires_in = 0;
};

// error is Auth for a 400/401/403 answer (credentials refused), otherwise as
// the status says; the message holds the endpoint's error code and
// description, never the request.
OAuthToken parse_oauth_token_response(const HttpResponse& response, const std::string& what, ProviderError& error);

} // namespace burst

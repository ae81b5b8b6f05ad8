#pragma once
// Maps Compute Engine failures to ProviderErrorKind.
//
// HTTP answers ({"error": {"code", "message", "errors": [{"reason", "message"}]}}):
//   transport failure, 5xx                          -> transient
//   429, 403 rateLimitExceeded/userRateLimitExceeded -> throttled (Retry-After honoured)
//   403 quotaExceeded / QUOTA_EXCEEDED              -> quota
//   401, other 403                                  -> auth
//   400, 404, 409, other 4xx                        -> invalid
// Operation errors (operation.error.errors[].code), the way capacity shows up:
//   ZONE_RESOURCE_POOL_EXHAUSTED[_WITH_DETAILS]     -> capacity
//   QUOTA_EXCEEDED                                  -> quota
//   RATE_LIMIT_EXCEEDED                             -> throttled
//   anything else                                   -> invalid
// Messages carry the codes and the API's text, never the request.

#include "provider/http/http_message.hpp"
#include "provider/http/throttled_transport.hpp"
#include "provider/provider.hpp"

#include <jansson.h>

#include <string>

namespace burst {

ProviderError classify_gce_response(const HttpResponse& response, const std::string& what);

// `error` is an operation's "error" object; kind None if it has no errors.
ProviderError classify_gce_operation_error(const json_t* error, const std::string& what);

// How ThrottledTransport tells a throttled Compute Engine answer.
ThrottleRules gce_throttle_rules();

} // namespace burst

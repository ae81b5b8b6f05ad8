#pragma once
// Maps Azure Resource Manager failures to ProviderErrorKind, from the HTTP
// status and the error code ({"error": {"code", "message", "details": [...]}},
// the same object a Failed Azure-AsyncOperation carries):
//   transport failure, 5xx                              -> transient
//   429                                                 -> throttled (Retry-After)
//   OperationNotAllowed, QuotaExceeded                  -> quota
//   AllocationFailed, ZonalAllocationFailed,
//   OverconstrainedAllocationRequest,
//   OverconstrainedZonalAllocationRequest, SkuNotAvailable -> capacity
//   401, AuthorizationFailed, InvalidAuthenticationToken*,
//   ExpiredAuthenticationToken                          -> auth
//   other 4xx                                           -> invalid
//   a Failed operation with another code                -> transient (Azure may place the next one)
// The code found in error.details wins when the top-level code is generic.

#include "provider/http/http_message.hpp"
#include "provider/http/throttled_transport.hpp"
#include "provider/provider.hpp"

#include <jansson.h>

#include <string>

namespace burst {

ProviderError classify_arm_response(const HttpResponse& response, const std::string& what);

// `error` is a Failed/Canceled operation's "error" object (may be null).
ProviderError classify_arm_operation_error(const json_t* error, const std::string& status, const std::string& what);

// How ThrottledTransport tells a throttled ARM answer.
ThrottleRules arm_throttle_rules();

} // namespace burst

#pragma once
// Maps an EC2 error code (from <Response><Errors><Error><Code>, or a
// CreateFleet errorSet item) and the HTTP status to what burstd should do
// about it.

#include "provider/http/http_message.hpp"
#include "provider/http/throttled_transport.hpp"
#include "provider/provider.hpp"

#include <string_view>

namespace burst {

// `http_status` 0 when the code came from inside a successful response.
ProviderErrorKind classify_ec2_error(std::string_view code, long http_status);

// An answer to `action` that arrived: kind None for HTTP 200, else the
// error document's first code (and the status) classified, with the
// Retry-After the answer carries.
ProviderError classify_ec2_response(const HttpResponse& response, std::string_view action);

// EC2 throttles non-mutating actions (Describe*, List*, Get*, Search*) in a
// larger bucket than mutating ones: which one a Query API call spends.
RequestKind ec2_request_kind(const HttpRequest& request);

// How ThrottledTransport tells an EC2 read from a write and a throttled answer.
ThrottleRules ec2_throttle_rules();

} // namespace burst

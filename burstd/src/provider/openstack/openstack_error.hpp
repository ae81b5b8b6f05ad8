#pragma once
// Maps an OpenStack (Keystone or Nova) HTTP answer to a ProviderError:
//   transport failure, other 5xx          -> transient
//   429, or 503 with Retry-After          -> throttled (retry_after from the header)
//   403/413 "Quota exceeded ..."          -> quota
//   401, other 403                        -> auth
//   409 about an instance's state         -> transient (it is busy; retry)
//   other 409, 400, 404, other 4xx        -> invalid
// The message carries the HTTP status and the service's own message, never
// the request (which may hold a password).

#include "provider/http/http_message.hpp"
#include "provider/http/throttled_transport.hpp"
#include "provider/provider.hpp"

#include <string_view>

namespace burst {

ProviderError classify_openstack_response(const HttpResponse& response, std::string_view what);

// The "message" of an OpenStack error body ({"itemNotFound": {"message": ...}},
// {"error": {"message": ...}}), or a printable prefix of the body.
std::string openstack_error_message(const std::string& body);

// "No valid host was found" in a server's fault: the cloud has no room.
bool is_no_valid_host(std::string_view fault_message);

// How ThrottledTransport tells a throttled OpenStack answer.
ThrottleRules nova_throttle_rules();

} // namespace burst

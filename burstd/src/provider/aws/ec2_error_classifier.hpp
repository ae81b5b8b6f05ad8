#pragma once
// Maps an EC2 error code (from <Response><Errors><Error><Code>, or a
// CreateFleet errorSet item) and the HTTP status to what burstd should do
// about it.

#include "provider/provider.hpp"

#include <string_view>

namespace burst {

// `http_status` 0 when the code came from inside a successful response.
ProviderErrorKind classify_ec2_error(std::string_view code, long http_status);

} // namespace burst

#pragma once
// Compute Engine's requestId must be a UUID, but burstd's idempotency tokens
// are free-form.  The same token always maps to the same UUID (the first 16
// bytes of its SHA-256, with RFC 4122 version 5-style version and variant
// bits), so a retried request carries the same requestId.

#include <string>

namespace burst {

std::string request_uuid(const std::string& token);

} // namespace burst

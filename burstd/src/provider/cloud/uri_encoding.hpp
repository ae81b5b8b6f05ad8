#pragma once
// Percent-encoding as AWS SigV4 defines it: every byte except the RFC 3986
// unreserved set (A-Z a-z 0-9 - . _ ~) becomes %XX with upper-case hex.
// The same encoding serves canonical requests and EC2 Query API form bodies,
// so what is sent is exactly what is signed.

#include <string>
#include <string_view>

namespace burst {

std::string uri_encode(std::string_view s, bool keep_slash = false);
// Decodes %XX; a '%' not followed by two hex digits is kept literally, and
// '+' stays '+' (SigV4 does not treat it as a space).
std::string uri_decode(std::string_view s);

} // namespace burst

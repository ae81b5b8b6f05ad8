#pragma once
// SHA-256 and HMAC-SHA256 over OpenSSL, the primitives of AWS Signature V4.

#include <string>
#include <string_view>

namespace burst {

std::string sha256(std::string_view data);                          // 32 raw bytes
std::string hmac_sha256(std::string_view key, std::string_view data); // 32 raw bytes
std::string hex_lower(std::string_view bytes);

} // namespace burst

#pragma once
// A JSON Web Token signed with RS256 (RSASSA-PKCS1-v1_5 over SHA-256), as
// Google's OAuth token endpoint expects for the jwt-bearer grant.

#include <string>
#include <string_view>

namespace burst {

std::string base64url(std::string_view bytes);

// header_json and claims_json are serialized already; returns
// base64url(header).base64url(claims).base64url(signature).  Throws
// std::runtime_error if the PEM is not a usable RSA private key (the message
// never quotes the key).
std::string sign_rs256_jwt(const std::string& header_json, const std::string& claims_json,
                           const std::string& private_key_pem);

} // namespace burst

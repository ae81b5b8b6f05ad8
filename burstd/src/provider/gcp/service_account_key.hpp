#pragma once
// A Google service-account key file (the JSON the console downloads).  Only
// the fields burstd needs are kept; type must be "service_account".  The file
// holds a private key, so one readable by group or others is refused.

#include <string>

namespace burst {

struct ServiceAccountKey {
    std::string client_email;
    std::string private_key;    // PEM; never put it in a message
    std::string private_key_id; // JWT "kid"
    std::string token_uri;      // where the signed JWT is exchanged
    std::string project_id;
};

// Throws std::runtime_error naming the file and the field; never the key.
ServiceAccountKey load_service_account_key(const std::string& path);
ServiceAccountKey parse_service_account_key(const std::string& json, const std::string& origin);

} // namespace burst

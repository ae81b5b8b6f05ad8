#pragma once
// An AWS access key, secret and optional session token.  The secret and the
// token are never formatted into logs or error messages; `describe()` is the
// only text form, and it shows where the key came from and the key id.

#include "model/clock.hpp"

#include <string>

namespace burst {

struct AwsCredentials {
    std::string access_key_id;
    std::string secret_access_key;
    std::string session_token; // empty for long-term keys
    Time expiration = 0;       // 0 = does not expire
    std::string source;        // "environment", "shared file ~/.aws/credentials [profile]", "instance metadata"

    bool empty() const { return access_key_id.empty() || secret_access_key.empty(); }
    std::string describe() const { return "access key " + access_key_id + " from " + source; }
};

} // namespace burst

#pragma once
// A Microsoft Entra service principal, read from a credentials file of
// Key=Value lines ('#' starts a comment line, keys case-insensitive):
//
//   TenantId=<uuid>
//   ClientId=<uuid>
//   ClientSecret=...
//
// The file holds a secret, so one readable by group or others is refused.

#include <string>

namespace burst {

struct AzureCredentials {
    std::string tenant_id;
    std::string client_id;
    std::string client_secret; // never put it in a message
};

// Throw std::runtime_error naming file:line and the key; never the secret.
AzureCredentials load_azure_credentials(const std::string& path);
AzureCredentials parse_azure_credentials(const std::string& text, const std::string& origin);

} // namespace burst

#include "provider/azure/azure_credentials.hpp"

#include "provider/cloud/param_reader.hpp"
#include "provider/cloud/secret_file.hpp"

#include <cctype>
#include <sstream>
#include <stdexcept>

namespace burst {

namespace {

std::string trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos)
        return "";
    return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

bool tenant_safe(const std::string& tenant)
{
    // It becomes a URL path segment: a UUID or a domain name, nothing else.
    for (char c : tenant)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.')
            return false;
    return !tenant.empty();
}

} // namespace

AzureCredentials parse_azure_credentials(const std::string& text, const std::string& origin)
{
    AzureCredentials c;
    std::istringstream in(text);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const std::string where = origin + ":" + std::to_string(number);
        line = trim(line);
        if (line.empty() || line[0] == '#')
            continue;
        const auto eq = line.find('=');
        if (eq == std::string::npos)
            throw std::runtime_error(where + ": expected Key=Value");
        const std::string key = trim(line.substr(0, eq));
        const std::string value = trim(line.substr(eq + 1));
        std::string* field = param_key_equals(key, "TenantId")       ? &c.tenant_id
                             : param_key_equals(key, "ClientId")     ? &c.client_id
                             : param_key_equals(key, "ClientSecret") ? &c.client_secret
                                                                     : nullptr;
        if (!field)
            throw std::runtime_error(where + ": unknown key " + key + "=; known keys: TenantId, ClientId, ClientSecret");
        if (!field->empty())
            throw std::runtime_error(where + ": " + key + "= given twice");
        if (value.empty())
            throw std::runtime_error(where + ": " + key + "= is empty");
        *field = value;
    }
    if (c.tenant_id.empty() || c.client_id.empty() || c.client_secret.empty())
        throw std::runtime_error(origin + ": TenantId=, ClientId= and ClientSecret= are all required");
    if (!tenant_safe(c.tenant_id))
        throw std::runtime_error(origin + ": TenantId=" + c.tenant_id + ": expected a UUID or a domain name");
    return c;
}

AzureCredentials load_azure_credentials(const std::string& path)
{
    return parse_azure_credentials(read_secret_file(path), path);
}

} // namespace burst

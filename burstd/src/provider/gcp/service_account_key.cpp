#include "provider/gcp/service_account_key.hpp"

#include "common/json_ref.hpp"
#include "provider/cloud/secret_file.hpp"

#include <stdexcept>

namespace burst {

namespace {

std::string field(json_t* root, const char* key, const std::string& origin, bool required)
{
    json_t* v = json_object_get(root, key);
    if (!v) {
        if (required)
            throw std::runtime_error(origin + ": field \"" + key + "\" is missing");
        return "";
    }
    if (!json_is_string(v) || json_string_length(v) == 0)
        throw std::runtime_error(origin + ": field \"" + key + "\" must be a non-empty string");
    return json_string_value(v);
}

} // namespace

ServiceAccountKey parse_service_account_key(const std::string& json, const std::string& origin)
{
    json_error_t err;
    JsonRef root(json_loads(json.c_str(), 0, &err));
    // jansson's error text can quote the input, which is a private key here.
    if (!root)
        throw std::runtime_error(origin + ":" + std::to_string(err.line) + ": not valid JSON");
    if (!json_is_object(root.get()))
        throw std::runtime_error(origin + ": expected a JSON object");
    const std::string type = field(root.get(), "type", origin, true);
    if (type != "service_account")
        throw std::runtime_error(origin + ": field \"type\" is \"" + type + "\", expected \"service_account\"");
    ServiceAccountKey k;
    k.client_email = field(root.get(), "client_email", origin, true);
    k.private_key = field(root.get(), "private_key", origin, true);
    k.private_key_id = field(root.get(), "private_key_id", origin, false);
    k.token_uri = field(root.get(), "token_uri", origin, true);
    k.project_id = field(root.get(), "project_id", origin, false);
    if (k.private_key.find("-----BEGIN PRIVATE KEY-----") == std::string::npos &&
        k.private_key.find("-----BEGIN RSA PRIVATE KEY-----") == std::string::npos)
        throw std::runtime_error(origin + ": field \"private_key\" is not a PEM private key");
    if (k.token_uri.rfind("https://", 0) != 0)
        throw std::runtime_error(origin + ": field \"token_uri\" must be an https:// URL");
    if (k.client_email.find('@') == std::string::npos)
        throw std::runtime_error(origin + ": field \"client_email\" is not an e-mail address");
    return k;
}

ServiceAccountKey load_service_account_key(const std::string& path)
{
    return parse_service_account_key(read_secret_file(path), path);
}

} // namespace burst

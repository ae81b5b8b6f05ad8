#include "provider/aws/imds_credentials.hpp"

#include <jansson.h>

#include <cctype>
#include <ctime>
#include <iomanip>
#include <memory>
#include <sstream>
#include <utility>

namespace burst {

namespace {

const char credentials_path[] = "/latest/meta-data/iam/security-credentials/";

struct JsonDeleter {
    void operator()(json_t* j) const { json_decref(j); }
};

std::string host_of(const std::string& endpoint)
{
    size_t start = endpoint.find("://");
    start = start == std::string::npos ? 0 : start + 3;
    return endpoint.substr(start, endpoint.find('/', start) - start);
}

bool valid_role_name(const std::string& role)
{
    if (role.empty() || role.size() > 64)
        return false;
    for (unsigned char c : role) {
        if (!std::isalnum(c) && std::string_view("+=,.@_-").find(static_cast<char>(c)) == std::string_view::npos)
            return false;
    }
    return true;
}

std::string required_string(json_t* root, const char* field)
{
    const char* s = json_string_value(json_object_get(root, field));
    if (!s || !*s)
        throw CredentialError(std::string("instance metadata: credentials document has no string field '") +
                              field + "'");
    return s;
}

} // namespace

ImdsCredentials::ImdsCredentials(HttpTransport& transport, std::string endpoint)
    : transport_(transport), endpoint_(std::move(endpoint))
{
}

std::optional<AwsCredentials> ImdsCredentials::load()
{
    auto request = [&](const char* method, const std::string& path) {
        HttpRequest r;
        r.origin = endpoint_;
        r.method = method;
        r.path = path;
        r.headers.push_back({"Host", host_of(endpoint_)});
        return r;
    };

    HttpRequest token_req = request("PUT", "/latest/api/token");
    token_req.headers.push_back({"X-aws-ec2-metadata-token-ttl-seconds", "21600"});
    HttpResponse token = transport_.perform(token_req);
    if (token.status != 200 || token.body.empty())
        return std::nullopt; // not on EC2, or IMDS disabled / v1-only

    HttpRequest role_req = request("GET", credentials_path);
    role_req.headers.push_back({"X-aws-ec2-metadata-token", token.body});
    HttpResponse role = transport_.perform(role_req);
    if (role.status == 404)
        return std::nullopt; // no instance profile attached
    if (role.status != 200)
        throw CredentialError("instance metadata: role lookup answered HTTP " + std::to_string(role.status) +
                              (role.transport_error.empty() ? "" : " (" + role.transport_error + ")"));
    std::string role_name = role.body.substr(0, role.body.find('\n'));
    if (!valid_role_name(role_name))
        throw CredentialError("instance metadata: role name is not a valid IAM role name");

    HttpRequest creds_req = request("GET", credentials_path + role_name);
    creds_req.headers.push_back({"X-aws-ec2-metadata-token", token.body});
    HttpResponse creds = transport_.perform(creds_req);
    if (creds.status != 200)
        throw CredentialError("instance metadata: credentials for role " + role_name + " answered HTTP " +
                              std::to_string(creds.status));

    json_error_t err;
    std::unique_ptr<json_t, JsonDeleter> root(json_loadb(creds.body.data(), creds.body.size(), 0, &err));
    if (!root || !json_is_object(root.get()))
        throw CredentialError("instance metadata: credentials for role " + role_name +
                              " are not a JSON object (line " + std::to_string(err.line) + ")");
    if (required_string(root.get(), "Code") != "Success")
        throw CredentialError("instance metadata: credentials for role " + role_name + " have Code '" +
                              required_string(root.get(), "Code") + "', expected 'Success'");
    AwsCredentials c;
    c.access_key_id = required_string(root.get(), "AccessKeyId");
    c.secret_access_key = required_string(root.get(), "SecretAccessKey");
    c.session_token = required_string(root.get(), "Token");
    std::tm tm{};
    std::istringstream expiration(required_string(root.get(), "Expiration"));
    expiration >> std::get_time(&tm, "%Y-%m-%dT%H:%M:%SZ");
    if (expiration.fail())
        throw CredentialError("instance metadata: Expiration is not YYYY-MM-DDTHH:MM:SSZ");
    c.expiration = static_cast<Time>(timegm(&tm));
    c.source = "instance metadata role " + role_name;
    return c;
}

} // namespace burst

#include "provider/openstack/openstack_credentials.hpp"

#include "common/text.hpp"
#include "provider/cloud/secret_file.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include <sys/stat.h>

namespace burst {

namespace {

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return std::tolower(ch); });
    return s;
}

std::string trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos)
        return "";
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

struct Field {
    const char* key;
    std::string OpenStackCredentials::*member;
};

const Field kFields[] = {
    {"AuthUrl", &OpenStackCredentials::auth_url},
    {"Username", &OpenStackCredentials::username},
    {"UserDomainName", &OpenStackCredentials::user_domain_name},
    {"UserDomainId", &OpenStackCredentials::user_domain_id},
    {"Password", &OpenStackCredentials::password},
    {"ProjectName", &OpenStackCredentials::project_name},
    {"ProjectId", &OpenStackCredentials::project_id},
    {"ProjectDomainName", &OpenStackCredentials::project_domain_name},
    {"ProjectDomainId", &OpenStackCredentials::project_domain_id},
    {"ApplicationCredentialId", &OpenStackCredentials::application_credential_id},
    {"ApplicationCredentialSecret", &OpenStackCredentials::application_credential_secret},
};

std::string known_keys()
{
    std::string all = "AuthType";
    for (const auto& f : kFields)
        all += std::string(", ") + f.key;
    return all;
}

void require(const std::string& value, const std::string& origin, const char* key, const char* why)
{
    if (value.empty())
        throw std::runtime_error(origin + ": " + key + "= is required " + why);
}

void forbid(const std::string& value, const std::string& origin, const char* key, const char* why)
{
    if (!value.empty())
        throw std::runtime_error(origin + ": " + key + "= does not apply " + why);
}

} // namespace

std::string OpenStackCredentials::describe() const
{
    if (auth_type == OpenStackAuthType::ApplicationCredential)
        return "application credential " + application_credential_id + " at " + auth_url;
    return "user '" + username + "' project '" + (project_name.empty() ? project_id : project_name) + "' at " +
           auth_url;
}

OpenStackCredentials parse_openstack_credentials(const std::string& text, const std::string& origin)
{
    OpenStackCredentials c;
    std::string auth_type;
    std::map<std::string, int> seen; // lower-case key -> line
    std::istringstream in(text);
    std::string raw;
    int line_no = 0;
    while (std::getline(in, raw)) {
        ++line_no;
        const std::string where = origin + ":" + std::to_string(line_no);
        const std::string line = trim(raw);
        if (line.empty() || line[0] == '#')
            continue;
        const auto eq = line.find('=');
        if (eq == std::string::npos)
            throw std::runtime_error(where + ": expected Key=Value");
        const std::string key = trim(line.substr(0, eq));
        const std::string value = trim(line.substr(eq + 1));
        const auto [first, inserted] = seen.emplace(lower(key), line_no);
        if (!inserted)
            throw std::runtime_error(where + ": " + key + "= given twice (first at line " +
                                     std::to_string(first->second) + ")");
        if (value.empty())
            throw std::runtime_error(where + ": " + key + "= has no value");
        if (iequals(key, "AuthType")) {
            auth_type = value;
            continue;
        }
        bool known = false;
        for (const auto& f : kFields) {
            if (iequals(key, f.key)) {
                c.*f.member = value;
                known = true;
            }
        }
        if (!known)
            throw std::runtime_error(where + ": unknown key '" + key + "' (known: " + known_keys() + ")");
    }

    require(c.auth_url, origin, "AuthUrl", "(Keystone's v3 URL)");
    if (c.auth_url.rfind("http://", 0) != 0 && c.auth_url.rfind("https://", 0) != 0)
        throw std::runtime_error(origin + ": AuthUrl= must start with http:// or https://, got '" + c.auth_url + "'");
    while (!c.auth_url.empty() && c.auth_url.back() == '/')
        c.auth_url.pop_back();

    if (auth_type.empty() || iequals(auth_type, "password")) {
        c.auth_type = OpenStackAuthType::Password;
        const char* why = "with AuthType=password";
        require(c.username, origin, "Username", why);
        require(c.password, origin, "Password", why);
        if (c.user_domain_name.empty() && c.user_domain_id.empty())
            throw std::runtime_error(origin + ": UserDomainName= or UserDomainId= is required with AuthType=password");
        if (c.project_name.empty() && c.project_id.empty())
            throw std::runtime_error(origin + ": ProjectName= or ProjectId= is required with AuthType=password");
        if (!c.project_name.empty() && c.project_domain_name.empty() && c.project_domain_id.empty())
            throw std::runtime_error(origin + ": ProjectDomainName= or ProjectDomainId= is required with ProjectName=");
        forbid(c.application_credential_id, origin, "ApplicationCredentialId", why);
        forbid(c.application_credential_secret, origin, "ApplicationCredentialSecret", why);
    } else if (iequals(auth_type, "application_credential")) {
        c.auth_type = OpenStackAuthType::ApplicationCredential;
        const char* why = "with AuthType=application_credential";
        require(c.application_credential_id, origin, "ApplicationCredentialId", why);
        require(c.application_credential_secret, origin, "ApplicationCredentialSecret", why);
        forbid(c.password, origin, "Password", why);
        forbid(c.project_name, origin, "ProjectName", "(an application credential is scoped to its project)");
        forbid(c.project_id, origin, "ProjectId", "(an application credential is scoped to its project)");
    } else {
        throw std::runtime_error(origin + ": AuthType= must be password or application_credential, got '" +
                                 auth_type + "'");
    }
    return c;
}

OpenStackCredentials load_openstack_credentials(const std::string& path)
{
    return parse_openstack_credentials(read_secret_file(path), path);
}

} // namespace burst

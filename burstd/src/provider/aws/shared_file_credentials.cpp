#include "provider/aws/shared_file_credentials.hpp"

#include "provider/aws/ini_file.hpp"
#include "provider/cloud/secret_file.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <utility>

namespace burst {

namespace {

struct ProfileFile {
    std::string path;
    std::string section;
};

bool exists(const std::string& path)
{
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

void require_private(const std::string& path)
{
    try {
        check_secret_file_mode(path);
    } catch (const std::runtime_error& e) {
        throw CredentialError(e.what());
    }
}

const char* const unsupported_keys[] = {"role_arn", "credential_process", "sso_start_url", "sso_session",
                                        "web_identity_token_file"};

} // namespace

SharedFileCredentials::SharedFileCredentials(EnvironmentLookup env) : env_(std::move(env)) {}

std::optional<AwsCredentials> SharedFileCredentials::load()
{
    const auto explicit_profile = env_("AWS_PROFILE");
    const std::string profile = explicit_profile.value_or("default");
    const std::string home = env_("HOME").value_or("");
    const std::string cred_path = env_("AWS_SHARED_CREDENTIALS_FILE").value_or(home + "/.aws/credentials");
    const std::string config_path = env_("AWS_CONFIG_FILE").value_or(home + "/.aws/config");

    const ProfileFile files[] = {
        {cred_path, profile},
        {config_path, profile == "default" ? profile : "profile " + profile},
    };
    for (const auto& file : files) {
        if (!exists(file.path))
            continue;
        IniFile ini = [&] {
            try {
                return IniFile::load(file.path);
            } catch (const IniError& e) {
                throw CredentialError(e.what());
            }
        }();
        const IniFile::Section* section = ini.section(file.section);
        if (!section)
            continue;
        auto get = [&](const char* key) {
            auto it = section->find(key);
            return it == section->end() ? std::string() : it->second;
        };
        AwsCredentials c;
        c.access_key_id = get("aws_access_key_id");
        c.secret_access_key = get("aws_secret_access_key");
        c.session_token = get("aws_session_token");
        if (c.access_key_id.empty() && c.secret_access_key.empty()) {
            for (const char* key : unsupported_keys) {
                if (section->count(key))
                    throw CredentialError(file.path + " [" + file.section + "]: '" + key +
                                          "' profiles are not supported; give aws_access_key_id and "
                                          "aws_secret_access_key, or run burstd with an instance role");
            }
            continue;
        }
        if (c.access_key_id.empty() || c.secret_access_key.empty())
            throw CredentialError(file.path + " [" + file.section + "]: " +
                                  (c.access_key_id.empty() ? "aws_access_key_id" : "aws_secret_access_key") +
                                  " is missing");
        require_private(file.path);
        c.source = file.path + " [" + file.section + "]";
        return c;
    }
    if (explicit_profile)
        throw CredentialError("AWS_PROFILE=" + profile + " but no keys for it in " + cred_path + " or " +
                              config_path);
    return std::nullopt;
}

} // namespace burst

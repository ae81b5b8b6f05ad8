#pragma once
// Who burstd is to Keystone, read from a credentials file of Key=Value lines
// (keys case-insensitive, '#' starts a comment line):
//
//   AuthUrl=https://keystone.example.org:5000/v3
//   AuthType=password                   # or application_credential
//   Username=burstd                     # password only
//   UserDomainName=Default              # password only (or UserDomainId=)
//   Password=...                        # password only
//   ProjectName=hpc                     # password only (or ProjectId=)
//   ProjectDomainName=Default           # password only (or ProjectDomainId=)
//   ApplicationCredentialId=...         # application_credential only
//   ApplicationCredentialSecret=...     # application_credential only
//
// An application credential is already scoped to its project.  The file holds
// secrets, so one readable by group or others is refused.

#include <string>

namespace burst {

enum class OpenStackAuthType { Password, ApplicationCredential };

struct OpenStackCredentials {
    std::string auth_url; // Keystone v3 base, e.g. "http://127.0.0.1:5000/v3"
    OpenStackAuthType auth_type = OpenStackAuthType::Password;
    std::string username;
    std::string user_domain_name;
    std::string user_domain_id;
    std::string password;
    std::string project_name;
    std::string project_id;
    std::string project_domain_name;
    std::string project_domain_id;
    std::string application_credential_id;
    std::string application_credential_secret;

    // Names the identity without its secret, for messages and logs.
    std::string describe() const;
};

// Throws std::runtime_error naming file:line and the field on any problem;
// the messages never contain a secret's value.
OpenStackCredentials load_openstack_credentials(const std::string& path);

// The same checks on text already read (for tests); origin names it in messages.
OpenStackCredentials parse_openstack_credentials(const std::string& text, const std::string& origin);

} // namespace burst

#include "provider/openstack/openstack_credentials.hpp"

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

const char* kPassword = "# demo\n"
                        "AuthUrl=http://127.0.0.1:5000/v3/\n"
                        "AuthType=password\n"
                        "username=demo\n"
                        "UserDomainName=Default\n"
                        "Password=s3cr3t-pw\n"
                        "ProjectName=demo\n"
                        "ProjectDomainName=Default\n";

std::string error_of(const std::string& text)
{
    try {
        parse_openstack_credentials(text, "creds");
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

bool has(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

} // namespace

TEST_GROUP(OpenStackCredentials){};

TEST(OpenStackCredentials, ReadsPasswordCredentialsWithCaseInsensitiveKeys)
{
    const auto c = parse_openstack_credentials(kPassword, "creds");
    CHECK(c.auth_type == OpenStackAuthType::Password);
    STRCMP_EQUAL("http://127.0.0.1:5000/v3", c.auth_url.c_str());
    STRCMP_EQUAL("demo", c.username.c_str());
    STRCMP_EQUAL("s3cr3t-pw", c.password.c_str());
    CHECK(!has(c.describe(), "s3cr3t"));
}

TEST(OpenStackCredentials, ReadsApplicationCredentials)
{
    const auto c = parse_openstack_credentials(
        "AuthUrl=https://k/v3\nAuthType=application_credential\nApplicationCredentialId=abc\n"
        "ApplicationCredentialSecret=topsecret\n",
        "creds");
    CHECK(c.auth_type == OpenStackAuthType::ApplicationCredential);
    STRCMP_EQUAL("abc", c.application_credential_id.c_str());
    CHECK(!has(c.describe(), "topsecret"));
}

TEST(OpenStackCredentials, RejectsWithFileLineAndField)
{
    CHECK(has(error_of("AuthUrl=http://k/v3\nBogus=1\n"), "creds:2: unknown key 'Bogus'"));
    CHECK(has(error_of("AuthUrl=http://k/v3\nno equals\n"), "creds:2: expected Key=Value"));
    CHECK(has(error_of("AuthUrl=ftp://k\n"), "AuthUrl= must start with http"));
    CHECK(has(error_of("AuthUrl=http://k/v3\nUsername=a\nUserDomainName=D\nProjectName=p\nProjectDomainName=D\n"),
              "Password= is required"));
    CHECK(has(error_of("AuthUrl=http://k/v3\nAuthType=kerberos\n"), "AuthType= must be password or application_credential"));
    CHECK(has(error_of("AuthUrl=http://k/v3\nAuthUrl=http://k/v3\n"), "creds:2: AuthUrl= given twice (first at line 1)"));
    CHECK(has(error_of("AuthUrl=http://k/v3\nAuthType=application_credential\nApplicationCredentialId=a\n"
                       "ApplicationCredentialSecret=b\nProjectName=p\n"),
              "ProjectName= does not apply"));
}

TEST(OpenStackCredentials, RefusesAFileReadableByOthers)
{
    char path[] = "/tmp/burst-os-cred-XXXXXX";
    const int fd = mkstemp(path);
    CHECK(fd >= 0);
    CHECK(write(fd, kPassword, std::char_traits<char>::length(kPassword)) > 0);
    close(fd);
    chmod(path, 0644);
    std::string why;
    try {
        load_openstack_credentials(path);
    } catch (const std::runtime_error& e) {
        why = e.what();
    }
    CHECK(has(why, "has mode 0644 (group/others may access it); refusing it: chmod 600 it"));
    CHECK(has(why, "chmod 600"));
    CHECK(!has(why, "s3cr3t"));
    chmod(path, 0600);
    STRCMP_EQUAL("demo", load_openstack_credentials(path).username.c_str());
    std::remove(path);
}

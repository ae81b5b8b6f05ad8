#include "provider/aws/ec2_provider_settings.hpp"

#include <optional>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

std::string error_of(const ParamMap& params, const std::string& region = "eu-west-1")
{
    try {
        ec2_settings_from_params(params, region, "");
    } catch (const Ec2SettingsError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST_GROUP(Ec2ProviderSettings){};

TEST(Ec2ProviderSettings, DefaultsFollowTheRegion)
{
    Ec2ProviderSettings s = ec2_settings_from_params({{"LaunchTemplateId", "lt-0abc"}}, "eu-west-1", "/etc/burstd/aws");
    STRCMP_EQUAL("https://ec2.eu-west-1.amazonaws.com", s.endpoint.c_str());
    STRCMP_EQUAL("lt-0abc", s.provider.launch_template.id.c_str());
    CHECK(!s.provider.uses_fleet());
    STRCMP_EQUAL("https://ec2.cn-north-1.amazonaws.com.cn",
                 ec2_settings_from_params({{"LaunchTemplateId", "lt-0abc"}}, "cn-north-1", "").endpoint.c_str());
}

TEST(Ec2ProviderSettings, EveryKeyIsRead)
{
    Ec2ProviderSettings s = ec2_settings_from_params({{"endpoint", "https://vpce-1.ec2.eu-west-1.vpce.amazonaws.com"},
                                                      {"Profile", "burst"},
                                                      {"CaFile", "/etc/burstd/ca.pem"},
                                                      {"LaunchTemplateName", "burst-compute"},
                                                      {"LaunchTemplateVersion", "$Latest"},
                                                      {"SubnetIds", "subnet-a,subnet-b"},
                                                      {"FallbackInstanceTypes", "c5a.large,c6i.large"}},
                                                     "eu-west-1", "");
    STRCMP_EQUAL("https://vpce-1.ec2.eu-west-1.vpce.amazonaws.com", s.endpoint.c_str());
    STRCMP_EQUAL("burst", s.profile.c_str());
    STRCMP_EQUAL("/etc/burstd/ca.pem", s.ca_file.c_str());
    STRCMP_EQUAL("burst-compute", s.provider.launch_template.name.c_str());
    STRCMP_EQUAL("$Latest", s.provider.launch_template.version.c_str());
    LONGS_EQUAL(2, s.provider.subnet_ids.size());
    STRCMP_EQUAL("subnet-b", s.provider.subnet_ids[1].c_str());
    LONGS_EQUAL(2, s.provider.fallback_instance_types.size());
    STRCMP_EQUAL("c6i.large", s.provider.fallback_instance_types[1].c_str());
    CHECK(s.provider.uses_fleet());
}

TEST(Ec2ProviderSettings, BadValuesAreRejectedByName)
{
    STRCMP_EQUAL("Region=: expected an AWS region such as us-east-1 (required for Type=aws)",
                 error_of({{"LaunchTemplateId", "lt-0abc"}}, "").c_str());
    STRCMP_EQUAL("LaunchTemplateId= or LaunchTemplateName=: expected exactly one of them", error_of({}).c_str());
    STRCMP_EQUAL("LaunchTemplateId=ami-1: expected a launch template id (lt-...)",
                 error_of({{"LaunchTemplateId", "ami-1"}}).c_str());
    STRCMP_EQUAL("Endpoint=http://127.0.0.1: expected https://host[:port] with no path (EC2 is only ever spoken to "
                 "over TLS)",
                 error_of({{"LaunchTemplateId", "lt-1"}, {"Endpoint", "http://127.0.0.1"}}).c_str());
    STRCMP_EQUAL("SubnetIds=subnet-a,,subnet-b: expected a comma-separated list of subnet-... ids without spaces or "
                 "empty items",
                 error_of({{"LaunchTemplateId", "lt-1"}, {"SubnetIds", "subnet-a,,subnet-b"}}).c_str());
    STRCMP_EQUAL("LaunchTemplateVersion=latest: expected $Latest, $Default or a version number",
                 error_of({{"LaunchTemplateId", "lt-1"}, {"LaunchTemplateVersion", "latest"}}).c_str());
    STRCMP_EQUAL("CaFile=ca.pem: expected an absolute path to a PEM CA bundle",
                 error_of({{"LaunchTemplateId", "lt-1"}, {"CaFile", "ca.pem"}}).c_str());
}

TEST(Ec2ProviderSettings, ProfileAndCredentialsFileOverrideTheEnvironment)
{
    Ec2ProviderSettings s =
        ec2_settings_from_params({{"LaunchTemplateId", "lt-1"}, {"Profile", "burst"}}, "us-east-1", "/etc/burstd/aws");
    EnvironmentLookup env = s.credential_environment([](const std::string& n) -> std::optional<std::string> {
        if (n == "AWS_PROFILE")
            return std::string("dev");
        if (n == "HOME")
            return std::string("/root");
        return std::nullopt;
    });
    STRCMP_EQUAL("burst", env("AWS_PROFILE").value().c_str());
    STRCMP_EQUAL("/etc/burstd/aws", env("AWS_SHARED_CREDENTIALS_FILE").value().c_str());
    STRCMP_EQUAL("/root", env("HOME").value().c_str());
}

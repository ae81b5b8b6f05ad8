#include "provider/provider_registry.hpp"

#include "model/clock.hpp"

#include <boost/asio/io_context.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "provider/http/curl_multi.hpp"

#include "scratch_dir.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

const test::ScratchDir& scratch()
{
    static const test::ScratchDir dir{"provider-registry-test"}; // removed at exit
    return dir;
}

ProviderSite site() { return ProviderSite{"/etc/slurm/slurm.conf", scratch().path.string()}; }

ProviderSpec local(ParamMap params)
{
    ProviderSpec p;
    p.name = "box";
    p.type = "local";
    p.params = std::move(params);
    p.origin = "burstd.conf:7";
    return p;
}

// Building a provider sends nothing, so the loop never needs to run.
struct Env {
    boost::asio::io_context io;
    CurlMulti http{io};
    ManualClock clock{1'700'000'000};
    RequestBudgets budgets;
    ProviderEnvironment env{http, clock, [](Seconds) {}, budgets};
};

const ProviderEnvironment& env()
{
    static Env e;
    return e.env;
}

ProviderSpec cloud(const std::string& type, ParamMap params, std::string credentials_file = "",
                     std::string region = "")
{
    ProviderSpec p = local(std::move(params));
    p.type = type;
    p.credentials_file = std::move(credentials_file);
    p.region = std::move(region);
    return p;
}

// A file in the test's temporary directory with this text and mode.
std::string file_with(const std::string& name, const std::string& text, mode_t mode)
{
    const std::string path = scratch().file(name);
    std::ofstream(path) << text;
    chmod(path.c_str(), mode);
    return path;
}

std::string error_of(const ProviderSpec& p)
{
    try {
        make_provider(p, site(), env());
    } catch (const ProviderConfigError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST_GROUP(ProviderRegistry){};

TEST(ProviderRegistry, BuildsLocalWithItsKeysCaseInsensitively)
{
    auto p = make_provider(local({{"bootdelay", "2s"}, {"SlurmdPath", "/bin/true"}}), site(), env());
    STRCMP_EQUAL("local", std::string(p->name()).c_str());
}

TEST(ProviderRegistry, RejectsUnknownKeyNamingItAndTheOrigin)
{
    STRCMP_EQUAL("burstd.conf:7: Provider=box: unknown key BootDelai= for Type=local (did you mean BootDelay?); "
                 "known keys: SlurmdPath, StateDir, BootDelay, TerminateGrace, Address, LaunchLatency, TerminateLatency",
                 error_of(local({{"BootDelai", "1"}})).c_str());
}

TEST(ProviderRegistry, RejectsBadValues)
{
    STRCMP_EQUAL("burstd.conf:7: Provider=box: BootDelay=soon: expected a duration (e.g. 5, 5s, 2m)",
                 error_of(local({{"BootDelay", "soon"}})).c_str());
    CHECK_TRUE(error_of(local({{"SlurmdPath", "/nonexistent/slurmd"}})).find("is not an executable file") !=
               std::string::npos);
}

TEST(ProviderRegistry, RejectsUnknownTypeListingKnownOnes)
{
    ProviderSpec p = local({});
    p.type = "vsphere";
    STRCMP_EQUAL("burstd.conf:7: Provider=box: Type=vsphere is not available in this burstd; known types: local, aws, "
                 "gcp, azure, openstack",
                 error_of(p).c_str());
}

namespace {

const char* const kAzureCredentials = "TenantId=77777777-7777-7777-7777-777777777777\n"
                                      "ClientId=11111111-2222-3333-4444-555555555555\nClientSecret=hush\n";
const char* const kOpenStackCredentials = "AuthUrl=https://127.0.0.1:5000/v3\nUsername=burstd\nUserDomainName=Default\n"
                                          "Password=hush\nProjectName=hpc\nProjectDomainName=Default\n";

ParamMap aws_keys() { return {{"LaunchTemplateId", "lt-0123456789abcdef0"}, {"SubnetIds", "subnet-a,subnet-b"}}; }
ParamMap gcp_keys()
{
    return {{"Project", "p"}, {"Zone", "us-central1-a"}, {"Template", "global/instanceTemplates/t"},
            {"TokenSource", "metadata"}};
}
ParamMap azure_keys()
{
    return {{"Subscription", "99999999-9999-9999-9999-999999999999"},
            {"ResourceGroup", "hpc"},
            {"Location", "eastus"},
            {"Image", "Canonical:ubuntu:22_04-lts:latest"},
            {"Subnet", "/subscriptions/9/resourceGroups/hpc/providers/Microsoft.Network/virtualNetworks/v/subnets/s"},
            {"VmSize", "Standard_D4s_v5"},
            {"SshPublicKey", "ssh-ed25519 AAAA burstd"}};
}
ParamMap openstack_keys() { return {{"Image", "0b1e2e6e-62b1-4b36-8d73-1f2bd3c1c5a2"}, {"Network", "none"}}; }

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

} // namespace

TEST(ProviderRegistry, BuildsEveryCloudTypeFromItsKeys)
{
    const std::string aws_file = file_with("aws-credentials", "[default]\naws_access_key_id=AK\naws_secret_access_key=S\n", 0600);
    const std::string az = file_with("azure.cred", kAzureCredentials, 0600);
    const std::string os = file_with("openstack.cred", kOpenStackCredentials, 0600);
    STRCMP_EQUAL("aws", std::string(make_provider(cloud("aws", aws_keys(), aws_file, "us-east-1"), site(), env())->name()).c_str());
    STRCMP_EQUAL("gcp", std::string(make_provider(cloud("gcp", gcp_keys()), site(), env())->name()).c_str());
    STRCMP_EQUAL("azure", std::string(make_provider(cloud("azure", azure_keys(), az), site(), env())->name()).c_str());
    ParamMap with_transport = openstack_keys();
    with_transport["CaFile"] = "/etc/ssl/certs/ca-certificates.crt";
    with_transport["ConnectTimeout"] = "3";
    with_transport["RequestTimeout"] = "1m";
    STRCMP_EQUAL("openstack",
                 std::string(make_provider(cloud("openstack", with_transport, os, "RegionOne"), site(), env())->name()).c_str());
}

TEST(ProviderRegistry, MisspelledCloudKeysAreNamedWithTheOrigin)
{
    ParamMap a = aws_keys();
    a["SubnetId"] = "subnet-a";
    CHECK_TEXT(has(error_of(cloud("aws", a, "", "us-east-1")),
                   "burstd.conf:7: Provider=box: unknown key SubnetId= for Type=aws (did you mean SubnetIds?)"),
               error_of(cloud("aws", a, "", "us-east-1")).c_str());
    ParamMap g = gcp_keys();
    g["Zome"] = "us-central1-b";
    CHECK(has(error_of(cloud("gcp", g)), "burstd.conf:7: Provider=box: unknown key Zome= for Type=gcp (did you mean Zone?)"));
    const std::string az = file_with("azure.cred", kAzureCredentials, 0600);
    ParamMap z = azure_keys();
    z["VMSizes"] = "x";
    CHECK(has(error_of(cloud("azure", z, az)), "burstd.conf:7: Provider=box: unknown key VMSizes= for Type=azure (did you mean VmSize?)"));
    const std::string os = file_with("openstack.cred", kOpenStackCredentials, 0600);
    ParamMap o = openstack_keys();
    o["Flavour"] = "m1.small";
    CHECK(has(error_of(cloud("openstack", o, os)), "burstd.conf:7: Provider=box: unknown key Flavour= for Type=openstack"));
}

TEST(ProviderRegistry, BadCloudValuesAreNamed)
{
    CHECK(has(error_of(cloud("aws", aws_keys(), "", "mars")), "burstd.conf:7: Provider=box: Region=mars: expected an AWS region"));
    ParamMap g = gcp_keys();
    g["Endpoint"] = "http://compute.example";
    CHECK(has(error_of(cloud("gcp", g)), "Provider=box: Endpoint=http://compute.example: expected https://host[:port]"));
    CHECK(has(error_of(cloud("gcp", gcp_keys(), "", "us-central1")), "Type=gcp takes no Region= (the zones are Zone= or Zones=)"));
    const std::string az = file_with("azure.cred", kAzureCredentials, 0600);
    ParamMap z = azure_keys();
    z.erase("SshPublicKey");
    CHECK(has(error_of(cloud("azure", z, az)), "Provider=box: SshPublicKey= is required"));
    CHECK(has(error_of(cloud("azure", azure_keys())), "Provider=box: CredentialsFile= is required for Type=azure"));
    const std::string os = file_with("openstack.cred", kOpenStackCredentials, 0600);
    ParamMap o = openstack_keys();
    o["Network"] = "public";
    CHECK(has(error_of(cloud("openstack", o, os)), "Network=public: expected none, auto or a network uuid"));
    o = openstack_keys();
    o["CaFile"] = "relative.pem";
    CHECK(has(error_of(cloud("openstack", o, os)), "CaFile=relative.pem: expected an absolute path"));
    o["CaFile"] = "/nonexistent/ca.pem";
    CHECK(has(error_of(cloud("openstack", o, os)), "CaFile=/nonexistent/ca.pem: cannot be read"));
    o.erase("CaFile");
    o["RequestTimeout"] = "0.5";
    CHECK(has(error_of(cloud("openstack", o, os)), "RequestTimeout=0.5: expected a whole number of seconds"));
}

TEST(ProviderRegistry, CredentialsFilesOthersMayReadAreRefusedTheSameWayForEveryCloud)
{
    const std::string aws = file_with("aws-open", "[default]\naws_access_key_id=AK\naws_secret_access_key=S\n", 0644);
    const std::string gcp = file_with("gcp-open.json", "{}", 0640);
    const std::string az = file_with("azure-open", kAzureCredentials, 0604);
    const std::string os = file_with("openstack-open", kOpenStackCredentials, 0644);
    ParamMap g = gcp_keys();
    g.erase("TokenSource");
    const std::string errors[] = {
        error_of(cloud("aws", aws_keys(), aws, "us-east-1")), error_of(cloud("gcp", g, gcp)),
        error_of(cloud("azure", azure_keys(), az)), error_of(cloud("openstack", openstack_keys(), os))};
    const std::string files[] = {aws, gcp, az, os};
    for (int i = 0; i < 4; ++i) {
        CHECK_TEXT(has(errors[i], "burstd.conf:7: Provider=box: " + files[i] + ": holds a secret but has mode 0"),
                   errors[i].c_str());
        CHECK_TEXT(has(errors[i], "(group/others may access it); refusing it: chmod 600 it"), errors[i].c_str());
        CHECK(!has(errors[i], "hush"));
    }
}

namespace {

// Builds `spec` against budgets of its own and returns the one it registered.
RequestBudgetView budget_of(const ProviderSpec& spec)
{
    Env own;
    make_provider(spec, site(), own.env);
    const auto views = own.budgets.views();
    if (views.size() != 1)
        FAIL("expected one request budget");
    return views.front();
}

void check_limits(const RequestBudgetView& v, double read_rate, double read_burst, double write_rate,
                  double write_burst)
{
    DOUBLES_EQUAL(read_rate, v.limits.read.rate, 1e-9);
    DOUBLES_EQUAL(read_burst, v.limits.read.burst, 1e-9);
    DOUBLES_EQUAL(write_rate, v.limits.write.rate, 1e-9);
    DOUBLES_EQUAL(write_burst, v.limits.write.burst, 1e-9);
}

} // namespace

TEST(ProviderRegistry, EveryCloudGetsARequestBudgetWithItsDocumentedDefaults)
{
    const std::string aws_file = file_with("aws-credentials", "[default]\naws_access_key_id=AK\naws_secret_access_key=S\n", 0600);
    const std::string az = file_with("azure.cred", kAzureCredentials, 0600);
    const std::string os = file_with("openstack.cred", kOpenStackCredentials, 0600);
    RequestBudgetView v = budget_of(cloud("aws", aws_keys(), aws_file, "eu-west-1"));
    STRCMP_EQUAL("box", v.provider.c_str());
    STRCMP_EQUAL("eu-west-1", v.region.c_str());
    check_limits(v, 20, 100, 5, 50);
    LONGS_EQUAL(4, v.limits.throttle_retries);
    DOUBLES_EQUAL(30, v.limits.max_throttle_wait, 1e-9);
    v = budget_of(cloud("gcp", gcp_keys()));
    STRCMP_EQUAL("global", v.region.c_str());
    check_limits(v, 20, 300, 20, 300);
    v = budget_of(cloud("azure", azure_keys(), az));
    STRCMP_EQUAL("eastus", v.region.c_str());
    check_limits(v, 25, 250, 10, 200);
    v = budget_of(cloud("openstack", openstack_keys(), os, "RegionOne"));
    STRCMP_EQUAL("RegionOne", v.region.c_str());
    check_limits(v, 10, 20, 2, 10);
}

TEST(ProviderRegistry, RequestBudgetKeysOverrideTheDefaults)
{
    const std::string os = file_with("openstack.cred", kOpenStackCredentials, 0600);
    ParamMap o = openstack_keys();
    o["ReadRequestRate"] = "2.5";
    o["ReadRequestBurst"] = "5";
    o["WriteRequestRate"] = "0.5";
    o["WriteRequestBurst"] = "1";
    o["ThrottleRetries"] = "0";
    o["ThrottleMaxWait"] = "2m";
    const RequestBudgetView v = budget_of(cloud("openstack", o, os));
    check_limits(v, 2.5, 5, 0.5, 1);
    LONGS_EQUAL(0, v.limits.throttle_retries);
    DOUBLES_EQUAL(120, v.limits.max_throttle_wait, 1e-9);
}

TEST(ProviderRegistry, BadRequestBudgetValuesAreNamed)
{
    const std::string os = file_with("openstack.cred", kOpenStackCredentials, 0600);
    const std::pair<const char*, const char*> bad[] = {
        {"ReadRequestRate", "0"}, {"WriteRequestRate", "fast"}, {"ReadRequestBurst", "0.5"},
        {"ThrottleRetries", "21"}, {"ThrottleRetries", "-1"}, {"ThrottleMaxWait", "0"}};
    for (const auto& [key, value] : bad) {
        ParamMap o = openstack_keys();
        o[key] = value;
        const std::string e = error_of(cloud("openstack", o, os));
        CHECK_TEXT(has(e, std::string("burstd.conf:7: Provider=box: ") + key + "=" + value + ": expected"), e.c_str());
    }
    ParamMap g = gcp_keys();
    g["WriteRequestBurst"] = "none";
    CHECK(has(error_of(cloud("gcp", g)), "WriteRequestBurst=none: expected a number of requests, at least 1"));
}

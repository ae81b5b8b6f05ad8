#include "provider/azure/azure_config.hpp"

#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

const char* kSubnet = "/subscriptions/s1/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/v/subnets/hpc";

ProviderParams base()
{
    return {{"Subscription", "s1"},
            {"ResourceGroup", "burst"},
            {"Location", "eastus"},
            {"Image", "Canonical:0001-com-ubuntu-server-jammy:22_04-lts-gen2:latest"},
            {"Subnet", kSubnet},
            {"VmSize", "Standard_D4s_v5"},
            {"SshPublicKey", "ssh-ed25519 AAAAC3Nz burstd"}};
}

std::string rejection(ProviderParams params)
{
    try {
        AzureProviderConfig::from_params(params);
    } catch (const AzureConfigError& e) {
        return e.what();
    }
    return "";
}

ProviderParams with(ProviderParams p, const std::string& key, const std::string& value)
{
    for (auto& kv : p)
        if (kv.first == key) {
            kv.second = value;
            return p;
        }
    p.emplace_back(key, value);
    return p;
}

} // namespace

TEST_GROUP(AzureConfig){};

TEST(AzureConfig, ReadsEveryKey)
{
    auto p = base();
    p.emplace_back("adminusername", "hpc");
    p.emplace_back("OsDiskType", "Premium_LRS");
    p.emplace_back("ApiVersion", "2023-09-01");
    p.emplace_back("OperationWait", "60");
    p.emplace_back("PollInterval", "2");
    const auto c = AzureProviderConfig::from_params(p);
    STRCMP_EQUAL("s1", c.subscription.c_str());
    STRCMP_EQUAL("burst", c.resource_group.c_str());
    STRCMP_EQUAL("eastus", c.location.c_str());
    STRCMP_EQUAL("Canonical", c.image.publisher.c_str());
    STRCMP_EQUAL("0001-com-ubuntu-server-jammy", c.image.offer.c_str());
    STRCMP_EQUAL("22_04-lts-gen2", c.image.sku.c_str());
    STRCMP_EQUAL("latest", c.image.version.c_str());
    STRCMP_EQUAL(kSubnet, c.subnet_id.c_str());
    STRCMP_EQUAL("Standard_D4s_v5", c.vm_size.c_str());
    STRCMP_EQUAL("hpc", c.admin_username.c_str());
    STRCMP_EQUAL("Premium_LRS", c.os_disk_type.c_str());
    STRCMP_EQUAL("2023-09-01", c.api_version.c_str());
    DOUBLES_EQUAL(60, c.operation_wait, 0);
    DOUBLES_EQUAL(2, c.poll_interval, 0);
    const auto by_id = AzureProviderConfig::from_params(
        with(base(), "Image", "/subscriptions/s1/resourceGroups/img/providers/Microsoft.Compute/images/burst-node"));
    STRCMP_EQUAL("/subscriptions/s1/resourceGroups/img/providers/Microsoft.Compute/images/burst-node",
                 by_id.image.id.c_str());
}

TEST(AzureConfig, RejectsWithTheKeyNamed)
{
    for (const char* key : {"Subscription", "ResourceGroup", "Location", "Image", "Subnet", "VmSize", "SshPublicKey"})
        CHECK_TEXT(has(rejection(with(base(), key, "")), std::string(key) + "= is required"), key);
    CHECK(has(rejection(with(base(), "Image", "Canonical:ubuntu")), "expected publisher:offer:sku:version"));
    CHECK(has(rejection(with(base(), "Image", "/images/x")), "Image=/images/x"));
    CHECK(has(rejection(with(base(), "Subnet", "hpc")), "Subnet=hpc"));
    CHECK(has(rejection(with(base(), "SshPublicKey", "AAAA")), "OpenSSH public key"));
    CHECK(has(rejection(with(base(), "PollInterval", "0")), "PollInterval= must be positive"));
    const std::string unknown = rejection(with(base(), "Region", "eastus"));
    CHECK(has(unknown, "unknown key Region="));
    CHECK(has(unknown, "known keys: Subscription"));
}

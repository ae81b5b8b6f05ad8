#pragma once
// What the "azure" provider launches and where.  Built from the provider
// section's keys by from_params(), which rejects unknown keys by name and any
// value it cannot use:
//
//   Subscription=<uuid>  ResourceGroup=hpc-burst  Location=eastus      (required)
//   Image=Canonical:0001-com-ubuntu-server-jammy:22_04-lts-gen2:latest (URN) or a
//         resource id /subscriptions/.../images/<name>                 (required)
//   Subnet=/subscriptions/.../virtualNetworks/<vnet>/subnets/<subnet>  (required)
//   VmSize=Standard_D4s_v5     default when a request names no instance type (required)
//   AdminUsername=burstd  SshPublicKey=ssh-ed25519 AAAA...             (key required)
//   Zones=1,2,3                availability zones, preferred first (optional; without
//                              it Azure places the VM in the region)
//   OsDiskType=StandardSSD_LRS  ApiVersion=2024-03-01
//   OperationWait=300  PollInterval=5                                  seconds
//   ParallelRequests=16        VMs created or deleted at once (each its own PUT or
//                              DELETE and operation; ARM has no call for several)
//   Endpoint=https://management.azure.com  LoginEndpoint=https://login.microsoftonline.com
//         (another Azure cloud, a private endpoint or a test server)

#include "model/clock.hpp"
#include "provider/cloud/provider_params.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace burst {

class AzureConfigError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

struct AzureImage {
    std::string id; // a managed image / gallery version resource id, or empty
    std::string publisher, offer, sku, version; // the marketplace URN otherwise
};

struct AzureProviderConfig {
    std::string subscription;
    std::string resource_group;
    std::string location;
    AzureImage image;
    std::string subnet_id;
    std::string vm_size;
    std::vector<std::string> zones;
    std::string admin_username = "burstd";
    std::string ssh_public_key;
    std::string os_disk_type = "StandardSSD_LRS";
    std::string api_version = "2024-03-01";
    Seconds operation_wait = 300;
    Seconds poll_interval = 5;
    std::size_t parallel_requests = 16;
    std::string management_origin = "https://management.azure.com";
    std::string login_origin = "https://login.microsoftonline.com";

    // Throws AzureConfigError naming the key and what was expected.
    static AzureProviderConfig from_params(const ProviderParams& params);
    // The keys from_params() knows.
    static std::vector<std::string> keys();
};

} // namespace burst

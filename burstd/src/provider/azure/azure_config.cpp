#include "provider/azure/azure_config.hpp"

#include "provider/cloud/param_reader.hpp"

#include <sstream>
#include <vector>

namespace burst {

namespace {

std::vector<std::string> split(const std::string& s, char sep)
{
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(s);
    while (std::getline(in, part, sep))
        parts.push_back(part);
    return parts;
}

bool is_resource_id(const std::string& s, const std::string& type_segment)
{
    return s.rfind("/subscriptions/", 0) == 0 && s.find(type_segment) != std::string::npos;
}

} // namespace

std::vector<std::string> AzureProviderConfig::keys()
{
    return {"Subscription", "ResourceGroup", "Location",      "Image",        "Subnet",   "VmSize",
            "AdminUsername", "SshPublicKey", "OsDiskType",    "ApiVersion",   "OperationWait",
            "PollInterval",  "Endpoint",     "LoginEndpoint", "Zones",        "ParallelRequests"};
}

AzureProviderConfig AzureProviderConfig::from_params(const ProviderParams& params)
{
    ParamReader<AzureConfigError> in(params, keys());
    AzureProviderConfig c;
    c.subscription = in.required("Subscription", "the subscription id (a UUID)");
    c.zones = in.zones("Zones", "0123456789");
    c.resource_group = in.required("ResourceGroup", "the resource group the VMs are created in");
    c.location = in.required("Location", "an Azure region such as eastus");
    const std::string image = in.required("Image", "publisher:offer:sku:version or an image resource id");
    if (image[0] == '/') {
        if (!is_resource_id(image, "/providers/Microsoft.Compute/"))
            throw AzureConfigError("Image=" + image + ": expected /subscriptions/.../providers/Microsoft.Compute/...");
        c.image.id = image;
    } else {
        const auto parts = split(image, ':');
        if (parts.size() != 4 || parts[0].empty() || parts[1].empty() || parts[2].empty() || parts[3].empty())
            throw AzureConfigError("Image=" + image + ": expected publisher:offer:sku:version");
        c.image = {"", parts[0], parts[1], parts[2], parts[3]};
    }
    c.subnet_id = in.required("Subnet", "the subnet resource id every VM's NIC joins");
    if (!is_resource_id(c.subnet_id, "/providers/Microsoft.Network/virtualNetworks/") ||
        c.subnet_id.find("/subnets/") == std::string::npos)
        throw AzureConfigError("Subnet=" + c.subnet_id +
                               ": expected /subscriptions/.../providers/Microsoft.Network/virtualNetworks/<vnet>/subnets/<name>");
    c.vm_size = in.required("VmSize", "the default VM size, e.g. Standard_D4s_v5");
    if (!in.optional("AdminUsername").empty())
        c.admin_username = in.optional("AdminUsername");
    c.ssh_public_key = in.required("SshPublicKey", "the admin user's SSH public key (Azure Linux VMs need one)");
    if (c.ssh_public_key.rfind("ssh-", 0) != 0 && c.ssh_public_key.rfind("ecdsa-", 0) != 0)
        throw AzureConfigError("SshPublicKey=: expected an OpenSSH public key line (ssh-rsa/ssh-ed25519/ecdsa-...)");
    if (!in.optional("OsDiskType").empty())
        c.os_disk_type = in.optional("OsDiskType");
    if (!in.optional("ApiVersion").empty())
        c.api_version = in.optional("ApiVersion");
    if (!in.optional("Endpoint").empty()) {
        const std::string v = in.optional("Endpoint");
        if (v.rfind("https://", 0) != 0 || v.size() <= 8 || v.find_first_of(" \t?#") != std::string::npos ||
            v.find('/', 8) != std::string::npos)
            throw AzureConfigError("Endpoint=" + v + ": expected https://host[:port] with no path");
        c.management_origin = v;
    }
    if (!in.optional("LoginEndpoint").empty()) {
        const std::string v = in.optional("LoginEndpoint");
        if (v.rfind("https://", 0) != 0 || v.size() <= 8 || v.find_first_of(" \t?#") != std::string::npos ||
            v.find('/', 8) != std::string::npos)
            throw AzureConfigError("LoginEndpoint=" + v + ": expected https://host[:port] with no path");
        c.login_origin = v;
    }
    c.operation_wait = in.seconds("OperationWait", c.operation_wait);
    c.poll_interval = in.seconds("PollInterval", c.poll_interval);
    if (c.poll_interval <= 0)
        throw AzureConfigError("PollInterval= must be positive");
    c.parallel_requests = in.count("ParallelRequests", 256, c.parallel_requests);
    return c;
}

} // namespace burst

#pragma once
// Azure virtual machines through Azure Resource Manager.
//
// Each node is one VM named after the node in the configured resource group,
// tagged with the cluster, node, burstd id and idempotency token.  Its NIC is
// created with it from the configured subnet (networkInterfaceConfigurations)
// and, like the OS disk, has deleteOption=Delete, so deleting the VM leaves
// nothing behind.  A PUT on an existing name would modify that VM, so launch()
// first GETs the name: our own VM is adopted, anyone else's is a conflict.
// launch() and terminate() follow the Azure-AsyncOperation URL (up to
// OperationWait): allocation failures are only reported there.  A VM whose
// creation failed is deleted so that it holds no quota, and the failure is
// reported once it is gone (the node is relaunched under the same name).
// An own VM found by name is adopted unless it is Deleting (refused) or
// Failed (deleted, then created anew).  Continuation URLs
// (nextLink, Azure-AsyncOperation, Location) are only followed on the
// management origin: the bearer token never goes anywhere else.

#include "model/clock.hpp"
#include "provider/azure/azure_config.hpp"
#include "provider/cloud/bearer_token_source.hpp"
#include "provider/http/http_transport.hpp"
#include "provider/provider.hpp"

#include <functional>
#include <memory>
#include <mutex>

namespace burst {

class AzureProvider final : public Provider {
public:
    static constexpr const char* kName = "azure";
    using Sleep = std::function<void(Seconds)>;

    AzureProvider(HttpTransport& transport, std::unique_ptr<BearerTokenSource> tokens, AzureProviderConfig config,
                  const Clock& clock, Sleep sleep);

    std::string_view name() const override { return kName; }
    std::vector<std::string> zones() const override { return config_.zones; }
    std::vector<LaunchResult> launch(const std::vector<LaunchRequest>& requests) override;
    // One launch() creates ParallelRequests VMs at once; its results wait
    // for its slowest VM, so a launch() takes no more than that many.
    std::size_t launch_batch_limit() const override { return config_.parallel_requests; }
    ListResult list(const InstanceTags& owner) override;
    std::map<std::string, ProviderError> terminate(const std::vector<std::string>& provider_ids) override;

    // The resource id of the VM named `name` in the configured resource group.
    std::string vm_id(const std::string& name) const;

private:
    // One ARM call to a path on the management origin (query without
    // api-version, which is added) or to an absolute continuation URL.
    // Retries once with a fresh token on 401; error unless 2xx.
    HttpResponse call(const std::string& method, const std::string& path_or_url, const std::string& body,
                      ProviderError& error);
    // Follows an Azure-AsyncOperation (or Location) URL until a terminal
    // status or OperationWait; error is the operation's failure, if any.
    // True once the operation is known to have succeeded.
    bool await(const HttpResponse& accepted, const std::string& what, ProviderError& error);
    // DELETEs the VM and waits (OperationWait) for its operation and then
    // for a GET answering 404.  True once the name is free; else error says
    // why (the delete failed, or the VM is still there and in which state).
    bool delete_confirmed(const std::string& id, ProviderError& error);
    std::string vm_body(const LaunchRequest& request) const;
    LaunchResult launch_one(const LaunchRequest& request);
    // The private IP of the node's NIC; "" if it cannot be read yet.
    std::string private_address(const std::string& node);

    HttpTransport& transport_;
    std::unique_ptr<BearerTokenSource> tokens_;
    AzureProviderConfig config_;
    const Clock& clock_;
    Sleep sleep_;
    std::mutex tokens_mutex_;
};

} // namespace burst

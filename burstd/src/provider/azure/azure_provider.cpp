#include "provider/azure/azure_provider.hpp"

#include "common/json_ref.hpp"
#include "provider/azure/arm_error_classifier.hpp"
#include "provider/cloud/parallel_for.hpp"
#include "common/json_text.hpp"
#include "common/json_fields.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace burst {

namespace {

constexpr const char* kClusterTag = "slurm-burst-cluster";
constexpr const char* kNodeTag = "slurm-burst-node";
constexpr const char* kOwnerTag = "slurm-burst-id";
constexpr const char* kTokenTag = "slurm-burst-token";
constexpr const char* kNetworkApiVersion = "2022-11-01";
constexpr int kMaxPages = 10000;

std::string tag(const json_t* vm, const char* key)
{
    return string_field(json_object_get(vm, "tags"), key);
}

bool owned_by(const json_t* vm, const InstanceTags& owner)
{
    return tag(vm, kClusterTag) == owner.cluster && tag(vm, kOwnerTag) == owner.burstd_id;
}

ProviderError malformed(const std::string& what, const std::string& why)
{
    return {ProviderErrorKind::Transient, what + ": " + why, 0};
}

// Azure VM names: 1-64 letters, digits, '-', '_' and '.'; not ending in '.' or '-'.
bool is_vm_name(const std::string& name)
{
    if (name.empty() || name.size() > 64 || name.back() == '.' || name.back() == '-')
        return false;
    for (char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
            return false;
    return true;
}

} // namespace

AzureProvider::AzureProvider(HttpTransport& transport, std::unique_ptr<BearerTokenSource> tokens,
                             AzureProviderConfig config, const Clock& clock, Sleep sleep)
    : transport_(transport), tokens_(std::move(tokens)), config_(std::move(config)), clock_(clock),
      sleep_(std::move(sleep))
{
}

std::string AzureProvider::vm_id(const std::string& name) const
{
    return "/subscriptions/" + config_.subscription + "/resourceGroups/" + config_.resource_group +
           "/providers/Microsoft.Compute/virtualMachines/" + name;
}

HttpResponse AzureProvider::call(const std::string& method, const std::string& path_or_url, const std::string& body,
                                 ProviderError& error)
{
    HttpRequest req;
    req.method = method;
    std::string target = path_or_url;
    if (target[0] != '/') {
        // A continuation URL from an answer: same origin (":443" is the default port) or refused.
        std::string origin_443 = config_.management_origin + ":443";
        std::string rest;
        if (target.rfind(origin_443 + "/", 0) == 0)
            rest = target.substr(origin_443.size());
        else if (target.rfind(config_.management_origin + "/", 0) == 0)
            rest = target.substr(config_.management_origin.size());
        else {
            error = malformed("ARM " + method, "refusing to follow a URL off " + config_.management_origin + ": " +
                                                  target.substr(0, target.find('?')));
            return {};
        }
        target = rest;
    } else if (target.find('?') == std::string::npos) {
        target += "?api-version=" + config_.api_version;
    }
    const auto q = target.find('?');
    req.origin = config_.management_origin;
    req.path = target.substr(0, q);
    req.query = q == std::string::npos ? "" : target.substr(q + 1);
    req.body = body;
    HttpResponse response;
    for (int attempt = 0; attempt < 2; ++attempt) {
        std::unique_lock<std::mutex> lock(tokens_mutex_);
        const std::string token = tokens_->token(error);
        lock.unlock();
        if (error)
            return response;
        req.headers = {{"Authorization", "Bearer " + token}, {"Accept", "application/json"}};
        if (!body.empty())
            req.headers.push_back({"Content-Type", "application/json"});
        response = transport_.perform(req);
        if (response.status != 401)
            break;
        const std::lock_guard<std::mutex> relock(tokens_mutex_);
        tokens_->invalidate();
    }
    error = classify_arm_response(response, "ARM " + method + " " + req.path);
    return response;
}

bool AzureProvider::await(const HttpResponse& accepted, const std::string& what, ProviderError& error)
{
    error = {};
    std::string url = accepted.header("Azure-AsyncOperation");
    const bool location_only = url.empty();
    if (location_only)
        url = accepted.header("Location");
    if (url.empty())
        return false; // nothing to follow: the caller judges the answer itself
    const Time deadline = clock_.now() + config_.operation_wait;
    while (clock_.now() < deadline) {
        sleep_(config_.poll_interval);
        const HttpResponse r = call("GET", url, "", error);
        if (error)
            return false;
        if (location_only) {
            // A Location monitor answers 202 until done, then the final result.
            if (r.status != 202)
                return true;
            continue;
        }
        json_error_t jerr;
        JsonRef root(json_loads(r.body.c_str(), 0, &jerr));
        const std::string status = root ? string_field(root.get(), "status") : "";
        if (status.empty()) {
            error = malformed(what, "operation status answer has no status");
            return false;
        }
        if (status == "Succeeded")
            return true;
        if (status == "Failed" || status == "Canceled") {
            error = classify_arm_operation_error(json_object_get(root.get(), "error"), status, what);
            return false;
        }
    }
    return false;
}

bool AzureProvider::delete_confirmed(const std::string& id, ProviderError& error)
{
    const std::string what = "delete VM " + id;
    const Time deadline = clock_.now() + config_.operation_wait;
    const HttpResponse r = call("DELETE", id, "", error);
    if (r.status == 404) {
        error = {};
        return true;
    }
    if (error)
        return false;
    await(r, what, error);
    if (error)
        return false;
    // A Succeeded operation (or a DELETE with nothing to follow) is not proof
    // that the name is free: only a GET answering 404 is.
    std::string state;
    for (;;) {
        const HttpResponse g = call("GET", id, "", error);
        if (g.status == 404) {
            error = {};
            return true;
        }
        if (error)
            return false;
        json_error_t jerr;
        JsonRef root(json_loads(g.body.c_str(), 0, &jerr));
        state = string_field(json_object_get(root.get(), "properties"), "provisioningState");
        if (clock_.now() >= deadline)
            break;
        sleep_(config_.poll_interval);
    }
    error = {ProviderErrorKind::Transient,
             what + ": still there (provisioningState " + (state.empty() ? "unknown" : state) + ") after " +
                 std::to_string(static_cast<long>(config_.operation_wait)) + " s",
             0};
    return false;
}

std::string AzureProvider::private_address(const std::string& node)
{
    const std::string nic = "/subscriptions/" + config_.subscription + "/resourceGroups/" + config_.resource_group +
                            "/providers/Microsoft.Network/networkInterfaces/" + node + "-nic?api-version=" +
                            kNetworkApiVersion;
    ProviderError error;
    const HttpResponse r = call("GET", nic, "", error);
    json_error_t jerr;
    JsonRef root(error ? nullptr : json_loads(r.body.c_str(), 0, &jerr));
    const json_t* ipconfigs = json_object_get(json_object_get(root.get(), "properties"), "ipConfigurations");
    return string_field(json_object_get(json_array_get(ipconfigs, 0), "properties"), "privateIPAddress");
}


std::string AzureProvider::vm_body(const LaunchRequest& request) const
{
    JsonRef vm(json_object());
    json_object_set_new(vm.get(), "location", json_string(config_.location.c_str()));
    const std::string zone = request.zone.empty() && !config_.zones.empty() ? config_.zones.front() : request.zone;
    if (!zone.empty()) // a zonal VM: ZonalAllocationFailed then means this zone, burstd tries the next
        json_object_set_new(vm.get(), "zones", json_pack("[s]", zone.c_str()));
    json_object_set_new(vm.get(), "tags",
                        json_pack("{s:s, s:s, s:s, s:s}", kClusterTag, request.tags.cluster.c_str(), kNodeTag,
                                  request.tags.node.c_str(), kOwnerTag, request.tags.burstd_id.c_str(), kTokenTag,
                                  request.idempotency_token.c_str()));
    json_t* props = json_object();
    const std::string size = request.instance_type.empty() ? config_.vm_size : request.instance_type;
    json_object_set_new(props, "hardwareProfile", json_pack("{s:s}", "vmSize", size.c_str()));
    json_t* image = config_.image.id.empty()
                        ? json_pack("{s:s, s:s, s:s, s:s}", "publisher", config_.image.publisher.c_str(), "offer",
                                    config_.image.offer.c_str(), "sku", config_.image.sku.c_str(), "version",
                                    config_.image.version.c_str())
                        : json_pack("{s:s}", "id", config_.image.id.c_str());
    json_object_set_new(props, "storageProfile",
                        json_pack("{s:o, s:{s:s, s:s, s:{s:s}}}", "imageReference", image, "osDisk", "createOption",
                                  "FromImage", "deleteOption", "Delete", "managedDisk", "storageAccountType",
                                  config_.os_disk_type.c_str()));
    const std::string key_path = "/home/" + config_.admin_username + "/.ssh/authorized_keys";
    json_object_set_new(props, "osProfile",
                        json_pack("{s:s, s:s, s:{s:b, s:{s:[{s:s, s:s}]}}}", "computerName", request.node.c_str(),
                                  "adminUsername", config_.admin_username.c_str(), "linuxConfiguration",
                                  "disablePasswordAuthentication", 1, "ssh", "publicKeys", "path", key_path.c_str(),
                                  "keyData", config_.ssh_public_key.c_str()));
    const std::string nic_name = request.node + "-nic";
    json_object_set_new(
        props, "networkProfile",
        json_pack("{s:s, s:[{s:s, s:{s:b, s:s, s:[{s:s, s:{s:{s:s}}}]}}]}", "networkApiVersion", kNetworkApiVersion,
                  "networkInterfaceConfigurations", "name", nic_name.c_str(), "properties", "primary", 1,
                  "deleteOption", "Delete", "ipConfigurations", "name", "ipconfig1", "properties", "subnet", "id",
                  config_.subnet_id.c_str()));
    if (request.spot) {
        json_object_set_new(props, "priority", json_string("Spot"));
        json_object_set_new(props, "evictionPolicy", json_string("Delete"));
        // -1: pay up to the on-demand price, evicted only for capacity.
        json_object_set_new(props, "billingProfile", json_pack("{s:i}", "maxPrice", -1));
    }
    json_object_set_new(vm.get(), "properties", props);
    return json_text(vm.get());
}

LaunchResult AzureProvider::launch_one(const LaunchRequest& request)
{
    LaunchResult result{request.node, "", "", {}};
    if (!is_vm_name(request.node)) {
        result.error = {ProviderErrorKind::Invalid, "node name " + request.node + " is not a valid Azure VM name", 0};
        return result;
    }
    const std::string id = vm_id(request.node);
    const std::string what = "create VM " + request.node;
    ProviderError error;
    const HttpResponse existing = call("GET", id, "", error);
    if (!error) {
        json_error_t jerr;
        JsonRef root(json_loads(existing.body.c_str(), 0, &jerr));
        if (!root || !owned_by(root.get(), request.tags) || tag(root.get(), kNodeTag) != request.tags.node) {
            result.error = {ProviderErrorKind::Invalid, what + ": a VM of that name exists and is not ours", 0};
            return result;
        }
        const std::string state = string_field(json_object_get(root.get(), "properties"), "provisioningState");
        if (state == "Deleting") {
            // Adopting it would hand Slurm a node that vanishes; a PUT now conflicts with the delete.
            result.error = {ProviderErrorKind::Transient,
                            what + ": the VM of an earlier attempt is still being deleted; relaunch once it is gone",
                            0};
            return result;
        }
        if (state != "Failed") {
            result.provider_id = id; // ours from an earlier attempt: adopt, never PUT over it
            return result;
        }
        // An earlier attempt that failed never boots but may hold quota: it goes, then the name is ours to reuse.
        ProviderError cleanup;
        if (!delete_confirmed(id, cleanup)) {
            result.error = {cleanup.kind, what + ": the earlier attempt's Failed VM is not gone: " + cleanup.message,
                            cleanup.retry_after};
            return result;
        }
    } else if (existing.status != 404) {
        result.error = error;
        return result;
    }
    const HttpResponse created = call("PUT", id, vm_body(request), result.error);
    if (result.error)
        return result;
    json_error_t jerr;
    JsonRef root(json_loads(created.body.c_str(), 0, &jerr));
    if (!root || string_field(root.get(), "id").empty()) {
        result.error = malformed(what, "answer lacks the VM's id");
        return result;
    }
    const bool done = await(created, what, result.error) ||
                      string_field(json_object_get(root.get(), "properties"), "provisioningState") == "Succeeded";
    if (result.error && result.error.kind != ProviderErrorKind::Throttled) {
        // A VM whose creation failed still exists and may hold quota; its NIC
        // and disk go with it (deleteOption=Delete).  The failure is reported
        // only once the VM is gone: burstd relaunches the node at once, under
        // the same name, in the next zone or type, and that launch's GET must
        // not find this VM (it would adopt a dying VM or PUT into its delete).
        // If the delete cannot be confirmed within OperationWait the error
        // says so; the VM then still carries our tags, so it is not leaked
        // (list() reports it, and the next launch of the name deletes a Failed
        // one first and refuses while it is Deleting).
        ProviderError cleanup;
        if (!delete_confirmed(id, cleanup))
            result.error.message += "; the failed VM is not confirmed deleted (" + cleanup.message + "), so " +
                                    request.node + " is not relaunched until it is gone";
        return result;
    }
    if (result.error)
        return result;
    result.provider_id = string_field(root.get(), "id");
    if (done) // before that the NIC may not have its address; a later list() is no help (ARM VM views lack it)
        result.address = private_address(request.node);
    return result;
}

std::vector<LaunchResult> AzureProvider::launch(const std::vector<LaunchRequest>& requests)
{
    std::vector<LaunchResult> results(requests.size());
    parallel_for(requests.size(), config_.parallel_requests,
                 [&](std::size_t i) { results[i] = launch_one(requests[i]); });
    return results;
}

ListResult AzureProvider::list(const InstanceTags& owner)
{
    ListResult result;
    std::string next = "/subscriptions/" + config_.subscription + "/resourceGroups/" + config_.resource_group +
                       "/providers/Microsoft.Compute/virtualMachines";
    std::set<std::string> seen;
    for (int page = 0; page < kMaxPages; ++page) {
        const HttpResponse r = call("GET", next, "", result.error);
        if (result.error)
            return result;
        json_error_t jerr;
        JsonRef root(json_loads(r.body.c_str(), 0, &jerr));
        const json_t* value = root ? json_object_get(root.get(), "value") : nullptr;
        if (!json_is_array(value)) {
            result.error = malformed("ARM list VMs", "answer has no \"value\" array");
            return result;
        }
        // ARM cannot filter VM lists by tag; filtering here is the only way.
        for (std::size_t i = 0; i < json_array_size(value); ++i) {
            const json_t* vm = json_array_get(value, i);
            if (!owned_by(vm, owner) || string_field(vm, "id").empty())
                continue;
            ProviderInstance pi;
            pi.provider_id = string_field(vm, "id");
            pi.node = tag(vm, kNodeTag).empty() ? string_field(vm, "name") : tag(vm, kNodeTag);
            pi.state = string_field(json_object_get(vm, "properties"), "provisioningState");
            pi.gone = pi.state == "Deleting";
            if (pi.state == "Failed")
                pi.error = {ProviderErrorKind::Transient, "VM " + pi.provider_id + " provisioning Failed", 0};
            result.instances.push_back(std::move(pi));
        }
        next = string_field(root.get(), "nextLink");
        if (next.empty())
            return result;
        if (!seen.insert(next).second) {
            result.instances.clear();
            result.error = malformed("ARM list VMs", "nextLink repeated (pagination loop): " + next.substr(0, next.find('?')));
            return result;
        }
    }
    result.instances.clear();
    result.error = malformed("ARM list VMs", "more than " + std::to_string(kMaxPages) + " pages");
    return result;
}

std::map<std::string, ProviderError> AzureProvider::terminate(const std::vector<std::string>& provider_ids)
{
    std::map<std::string, ProviderError> errors;
    const std::string prefix = vm_id("");
    struct Delete {
        std::string id;
        HttpResponse accepted;
        bool gone = false;
        ProviderError error;
    };
    std::vector<Delete> deletes;
    for (const auto& id : provider_ids) {
        if (id.rfind(prefix, 0) == 0 && is_vm_name(id.substr(prefix.size())))
            deletes.push_back({id, {}, false, {}});
        else
            errors[id] = {ProviderErrorKind::Invalid, "provider id " + id + " is not " + prefix + "<name>", 0};
    }
    // Every delete is asked for before any is awaited: they run on Azure's side meanwhile.
    parallel_for(deletes.size(), config_.parallel_requests, [&](std::size_t i) {
        Delete& d = deletes[i];
        d.accepted = call("DELETE", d.id, "", d.error);
        d.gone = d.accepted.status == 404; // already gone
    });
    parallel_for(deletes.size(), config_.parallel_requests, [&](std::size_t i) {
        Delete& d = deletes[i];
        if (!d.gone && !d.error)
            await(d.accepted, "delete VM " + d.id, d.error);
    });
    for (const auto& d : deletes)
        if (!d.gone && d.error)
            errors[d.id] = d.error;
    return errors;
}

} // namespace burst

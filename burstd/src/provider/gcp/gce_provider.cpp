#include "provider/gcp/gce_provider.hpp"

#include "provider/cloud/parallel_for.hpp"
#include "provider/cloud/uri_encoding.hpp"
#include "provider/gcp/gce_error_classifier.hpp"
#include "provider/gcp/gce_labels.hpp"
#include "common/json_text.hpp"
#include "provider/gcp/request_uuid.hpp"
#include "common/json_fields.hpp"

#include <set>

namespace burst {

namespace {

constexpr int kMaxPages = 10000; // a pageToken that never ends must not loop forever

std::string label(const json_t* instance, const char* key)
{
    return string_field(json_object_get(instance, "labels"), key);
}

ProviderError malformed(const std::string& what, const std::string& why)
{
    // An answer we cannot read is most likely a proxy or a truncated body.
    return {ProviderErrorKind::Transient, what + ": " + why, 0};
}

// "<prefix><zone>/instances/<name>" -> zone, for a valid zone and instance name.
bool split_instance_id(const std::string& id, const std::string& prefix, std::string& zone)
{
    if (id.rfind(prefix, 0) != 0)
        return false;
    const std::size_t slash = id.find('/', prefix.size());
    if (slash == std::string::npos || slash == prefix.size() || id.compare(slash, 11, "/instances/") != 0)
        return false;
    zone = id.substr(prefix.size(), slash - prefix.size());
    return zone.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos &&
           is_gce_instance_name(id.substr(slash + 11));
}

std::string join_bulk_token(const std::vector<const LaunchRequest*>& batch)
{
    std::string all = "bulk";
    for (const auto* r : batch)
        all += "\n" + r->idempotency_token;
    return all;
}

} // namespace

GceProvider::GceProvider(HttpTransport& transport, std::unique_ptr<BearerTokenSource> tokens,
                         GcpProviderConfig config, const Clock& clock, Sleep sleep)
    : transport_(transport), tokens_(std::move(tokens)), config_(std::move(config)), clock_(clock),
      sleep_(std::move(sleep))
{
}

std::string GceProvider::zone_path(const std::string& zone) const
{
    return "projects/" + config_.project + "/zones/" + zone;
}

std::string GceProvider::zone_of(const LaunchRequest& request) const
{
    return request.zone.empty() ? config_.zones.front() : request.zone;
}

std::string GceProvider::instance_id(const std::string& zone, const std::string& instance_name) const
{
    return zone_path(zone) + "/instances/" + instance_name;
}

HttpResponse GceProvider::call(const std::string& method, const std::string& path, const std::string& query,
                               const std::string& body, ProviderError& error)
{
    HttpResponse response;
    const std::string what = "compute " + method + " " + path;
    for (int attempt = 0; attempt < 2; ++attempt) {
        std::unique_lock<std::mutex> lock(tokens_mutex_);
        const std::string token = tokens_->token(error);
        lock.unlock();
        if (error)
            return response;
        HttpRequest req;
        req.origin = config_.api_origin;
        req.method = method;
        req.path = "/compute/v1/" + path;
        req.query = query;
        req.headers = {{"Authorization", "Bearer " + token}, {"Accept", "application/json"}};
        if (!body.empty())
            req.headers.push_back({"Content-Type", "application/json"});
        req.body = body;
        response = transport_.perform(req);
        if (response.status != 401)
            break;
        const std::lock_guard<std::mutex> relock(tokens_mutex_);
        tokens_->invalidate(); // revoked or expired early: one fresh token, then it is an auth error
    }
    error = classify_gce_response(response, what);
    return response;
}

GceProvider::Operation GceProvider::operation_from(const std::string& zone, const HttpResponse& response,
                                                   const std::string& what, ProviderError& error) const
{
    Operation op;
    op.zone = zone;
    json_error_t jerr;
    JsonRef root(json_loads(response.body.c_str(), 0, &jerr));
    if (!root || !json_is_object(root.get())) {
        error = malformed(what, "answer is not a JSON object");
        return op;
    }
    op.name = string_field(root.get(), "name");
    const std::string status = string_field(root.get(), "status");
    if (op.name.empty() || (status != "PENDING" && status != "RUNNING" && status != "DONE")) {
        error = malformed(what, "answer is not an operation (name, status PENDING|RUNNING|DONE)");
        return op;
    }
    op.done = status == "DONE";
    if (op.done)
        op.error = classify_gce_operation_error(json_object_get(root.get(), "error"), "operation " + op.name);
    return op;
}

GceProvider::Operation GceProvider::await(Operation op, const std::string& what, ProviderError& error)
{
    const Time deadline = clock_.now() + config_.operation_wait;
    while (!op.done && clock_.now() < deadline) {
        sleep_(config_.poll_interval);
        const HttpResponse r = call("GET", zone_path(op.zone) + "/operations/" + op.name, "", "", error);
        if (error)
            return op;
        op = operation_from(op.zone, r, what, error);
        if (error)
            return op;
    }
    return op;
}

std::string GceProvider::machine_type(const LaunchRequest& request) const
{
    return request.instance_type.empty() ? config_.machine_type : request.instance_type;
}

JsonRef GceProvider::instance_properties(const LaunchRequest& request, bool bulk) const
{
    JsonRef p(json_object());
    if (!bulk)
        json_object_set_new(p.get(), "name", json_string(request.node.c_str()));
    const std::string type = machine_type(request);
    if (!type.empty()) {
        // insert takes a zonal partial URL, bulkInsert's instanceProperties the bare name.
        const std::string value = bulk ? type : "zones/" + zone_of(request) + "/machineTypes/" + type;
        json_object_set_new(p.get(), "machineType", json_string(value.c_str()));
    }
    json_t* labels = json_object();
    json_object_set_new(labels, kGceClusterLabel, json_string(encode_gce_label(request.tags.cluster).c_str()));
    if (!bulk) // bulkInsert shares one label set: the node is the instance name there
        json_object_set_new(labels, kGceNodeLabel, json_string(encode_gce_label(request.tags.node).c_str()));
    json_object_set_new(labels, kGceOwnerLabel, json_string(encode_gce_label(request.tags.burstd_id).c_str()));
    json_object_set_new(p.get(), "labels", labels);
    if (request.spot)
        json_object_set_new(p.get(), "scheduling",
                            json_pack("{s:s, s:s}", "provisioningModel", "SPOT", "instanceTerminationAction", "DELETE"));
    if (config_.instance_template.empty()) {
        json_object_set_new(p.get(), "disks",
                            json_pack("[{s:b, s:b, s:{s:s}}]", "boot", 1, "autoDelete", 1, "initializeParams",
                                      "sourceImage", config_.image.c_str()));
        json_t* nic = json_pack("{s:s}", "network", config_.network.c_str());
        if (!config_.subnetwork.empty())
            json_object_set_new(nic, "subnetwork", json_string(config_.subnetwork.c_str()));
        json_object_set_new(p.get(), "networkInterfaces", json_pack("[o]", nic));
    }
    return p;
}

ProviderInstance GceProvider::describe(const std::string& zone, const json_t* instance) const
{
    ProviderInstance pi;
    const std::string name = string_field(instance, "name");
    pi.provider_id = instance_id(zone, name);
    const auto node = decode_gce_label(label(instance, kGceNodeLabel));
    pi.node = node && !node->empty() ? *node : name;
    pi.state = string_field(instance, "status");
    const json_t* nics = json_object_get(instance, "networkInterfaces");
    pi.address = string_field(json_array_get(nics, 0), "networkIP");
    const json_t* scheduling = json_object_get(instance, "scheduling");
    const bool spot = string_field(scheduling, "provisioningModel") == "SPOT" ||
                      json_is_true(json_object_get(scheduling, "preemptible"));
    // A stopped (TERMINATED) instance still exists and keeps its disk: only a
    // preempted spot VM counts as gone, so an on-demand one is still deleted.
    pi.reclaimed = spot && (pi.state == "STOPPING" || pi.state == "TERMINATED");
    pi.gone = pi.reclaimed;
    return pi;
}

bool GceProvider::owned_instances(const std::string& zone, const InstanceTags& owner,
                                  std::vector<ProviderInstance>& out, ProviderError& error)
{
    const std::string cluster = encode_gce_label(owner.cluster);
    const std::string id = encode_gce_label(owner.burstd_id);
    const std::string filter = std::string("labels.") + kGceClusterLabel + "=\"" + cluster + "\" AND labels." +
                               kGceOwnerLabel + "=\"" + id + "\"";
    std::string page_token;
    std::set<std::string> seen_tokens;
    for (int page = 0; page < kMaxPages; ++page) {
        std::string query = "filter=" + uri_encode(filter) + "&maxResults=500";
        if (!page_token.empty())
            query += "&pageToken=" + uri_encode(page_token);
        const HttpResponse r = call("GET", zone_path(zone) + "/instances", query, "", error);
        if (error)
            return false;
        json_error_t jerr;
        JsonRef root(json_loads(r.body.c_str(), 0, &jerr));
        const json_t* items = root ? json_object_get(root.get(), "items") : nullptr;
        if (!root || !json_is_object(root.get()) || (items && !json_is_array(items))) {
            error = malformed("compute GET instances", "answer is not an instance list");
            return false;
        }
        for (std::size_t i = 0; items && i < json_array_size(items); ++i) {
            const json_t* item = json_array_get(items, i);
            // The filter ran server-side; checking again costs nothing and
            // keeps a too-broad answer from handing us someone else's VM.
            if (label(item, kGceClusterLabel) == cluster && label(item, kGceOwnerLabel) == id &&
                !string_field(item, "name").empty())
                out.push_back(describe(zone, item));
        }
        page_token = string_field(root.get(), "nextPageToken");
        if (page_token.empty())
            return true;
        if (!seen_tokens.insert(page_token).second) {
            error = malformed("compute GET instances", "pageToken " + page_token + " repeated (pagination loop)");
            return false;
        }
    }
    error = malformed("compute GET instances", "more than " + std::to_string(kMaxPages) + " pages");
    return false;
}

ListResult GceProvider::list(const InstanceTags& owner)
{
    ListResult result;
    for (const auto& zone : config_.zones)
        if (!owned_instances(zone, owner, result.instances, result.error))
            break;
    if (result.error)
        result.instances.clear(); // a partial list would look like lost instances
    return result;
}

LaunchResult GceProvider::adopt(const LaunchRequest& request, const ProviderError& conflict)
{
    LaunchResult result{request.node, "", "", conflict};
    ProviderError error;
    const std::string zone = zone_of(request);
    const HttpResponse r = call("GET", zone_path(zone) + "/instances/" + request.node, "", "", error);
    if (error)
        return result;
    json_error_t jerr;
    JsonRef root(json_loads(r.body.c_str(), 0, &jerr));
    if (!root || label(root.get(), kGceClusterLabel) != encode_gce_label(request.tags.cluster) ||
        label(root.get(), kGceOwnerLabel) != encode_gce_label(request.tags.burstd_id))
        return result; // someone else's instance holds the name: the conflict stands
    const ProviderInstance pi = describe(zone, root.get());
    return {request.node, pi.provider_id, pi.address, {}};
}

LaunchResult GceProvider::insert_one(const LaunchRequest& request)
{
    LaunchResult result{request.node, "", "", {}};
    const std::string zone = zone_of(request);
    std::string query = "requestId=" + request_uuid(request.idempotency_token);
    if (!config_.instance_template.empty())
        query += "&sourceInstanceTemplate=" + uri_encode(config_.instance_template);
    const HttpResponse r =
        call("POST", zone_path(zone) + "/instances", query, json_text(instance_properties(request, false).get()),
             result.error);
    if (r.status == 409)
        return adopt(request, result.error);
    if (result.error)
        return result;
    const std::string what = "instances.insert " + request.node + " in " + zone;
    Operation op = operation_from(zone, r, what, result.error);
    if (result.error)
        return result;
    op = await(op, what, result.error);
    if (result.error)
        return result;
    if (op.error) {
        result.error = op.error;
        return result;
    }
    result.provider_id = instance_id(zone, request.node);
    if (op.done) {
        // The address is known once the instance exists; without it the
        // node still comes up, burstctl sets NodeAddr from a later list.
        ProviderError ignored;
        const HttpResponse got = call("GET", zone_path(zone) + "/instances/" + request.node, "", "", ignored);
        json_error_t jerr;
        JsonRef root(json_loads(got.body.c_str(), 0, &jerr));
        if (!ignored && root)
            result.address = describe(zone, root.get()).address;
    }
    return result;
}

void GceProvider::bulk_insert(const std::vector<LaunchRequest>& requests, std::vector<LaunchResult>& results)
{
    std::vector<const LaunchRequest*> batch;
    for (const auto& r : requests)
        batch.push_back(&r);
    const LaunchRequest& first = *batch.front();
    const std::string zone = zone_of(first);
    JsonRef body(json_object());
    json_object_set_new(body.get(), "count", json_integer(static_cast<json_int_t>(batch.size())));
    // One job's nodes: GCE creates them all or, deleting what it made, none.
    const json_int_t min_count = first.all_or_nothing ? static_cast<json_int_t>(batch.size()) : 1;
    json_object_set_new(body.get(), "minCount", json_integer(min_count));
    json_t* per_instance = json_object();
    for (const auto* r : batch)
        json_object_set_new(per_instance, r->node.c_str(), json_object());
    json_object_set_new(body.get(), "perInstanceProperties", per_instance);
    json_object_set(body.get(), "instanceProperties", instance_properties(first, true).get());
    if (!config_.instance_template.empty())
        json_object_set_new(body.get(), "sourceInstanceTemplate", json_string(config_.instance_template.c_str()));
    const std::string query = "requestId=" + request_uuid(join_bulk_token(batch));

    ProviderError error;
    const HttpResponse r =
        call("POST", zone_path(zone) + "/instances/bulkInsert", query, json_text(body.get()), error);
    const std::string what = "instances.bulkInsert of " + std::to_string(batch.size()) + " in " + zone;
    Operation op;
    if (!error)
        op = operation_from(zone, r, what, error);
    if (!error)
        op = await(op, what, error);
    if (error) {
        for (auto& result : results)
            result.error = error;
        return;
    }
    std::vector<ProviderInstance> existing;
    ProviderError list_error;
    if (!owned_instances(zone, first.tags, existing, list_error)) {
        // Creation may have worked; the ledger reconciles once listing works again.
        for (auto& result : results)
            result.error = list_error;
        return;
    }
    for (auto& result : results) {
        const ProviderInstance* found = nullptr;
        for (const auto& pi : existing)
            if (pi.provider_id == instance_id(zone, result.node))
                found = &pi;
        if (found) {
            result.provider_id = found->provider_id;
            result.address = found->address;
        } else if (!op.done) {
            result.provider_id = instance_id(zone, result.node); // still being created
        } else if (op.error) {
            result.error = op.error;
        } else {
            result.error = {ProviderErrorKind::Capacity,
                            what + ": done, but " + result.node + " was not created (minCount reached without it)", 0};
        }
    }
}

std::vector<LaunchResult> GceProvider::launch(const std::vector<LaunchRequest>& requests)
{
    std::vector<LaunchResult> results(requests.size());
    std::vector<std::size_t> valid;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const LaunchRequest& r = requests[i];
        results[i].node = r.node;
        std::string why;
        if (!is_gce_instance_name(r.node))
            why = "node name " + r.node + " is not a valid instance name ([a-z]([-a-z0-9]{0,61}[a-z0-9])?)";
        else if (!fits_gce_label(r.tags.cluster) || !fits_gce_label(r.tags.node) || !fits_gce_label(r.tags.burstd_id))
            why = "cluster, node or burstd id longer than a label value allows once encoded (63)";
        else if (machine_type(r).empty() && config_.instance_template.empty())
            why = "no instance type in the request and no MachineType= or Template=";
        else if (r.zone.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos)
            why = "zone " + r.zone + " is not a zone name";
        if (why.empty())
            valid.push_back(i);
        else
            results[i].error = {ProviderErrorKind::Invalid, why, 0};
    }
    // One bulkInsert needs one shared set of instance properties.
    bool uniform = config_.bulk_insert && valid.size() > 1;
    for (std::size_t k = 1; uniform && k < valid.size(); ++k) {
        const LaunchRequest& a = requests[valid[0]];
        const LaunchRequest& b = requests[valid[k]];
        uniform = machine_type(a) == machine_type(b) && zone_of(a) == zone_of(b) && a.spot == b.spot &&
                  a.all_or_nothing == b.all_or_nothing && a.tags.cluster == b.tags.cluster &&
                  a.tags.burstd_id == b.tags.burstd_id;
    }
    if (uniform) {
        std::vector<LaunchRequest> batch;
        std::vector<LaunchResult> batch_results;
        for (std::size_t i : valid) {
            batch.push_back(requests[i]);
            batch_results.push_back(results[i]);
        }
        bulk_insert(batch, batch_results);
        for (std::size_t k = 0; k < valid.size(); ++k)
            results[valid[k]] = batch_results[k];
        return results;
    }
    for (std::size_t i : valid)
        results[i] = insert_one(requests[i]);
    return results;
}

std::map<std::string, ProviderError> GceProvider::terminate(const std::vector<std::string>& provider_ids)
{
    std::map<std::string, ProviderError> errors;
    // The id names the zone: the delete and its operation go there.
    const std::string prefix = "projects/" + config_.project + "/zones/";
    struct Delete {
        std::string id, zone;
        Operation op;
        bool gone = false;
        ProviderError error;
    };
    std::vector<Delete> deletes;
    for (const auto& id : provider_ids) {
        std::string zone;
        if (split_instance_id(id, prefix, zone))
            deletes.push_back({id, zone, {}, false, {}});
        else
            errors[id] = {ProviderErrorKind::Invalid,
                          "provider id " + id + " is not " + prefix + "<zone>/instances/<name>", 0};
    }
    // GCE deletes one instance per call, ParallelDeletes at a time; its
    // deletes run on GCE's side meanwhile, so all are asked for before any is
    // awaited, and the slowest costs at most one OperationWait in total.
    parallel_for(deletes.size(), config_.parallel_deletes, [&](std::size_t i) {
        Delete& d = deletes[i];
        const HttpResponse r = call("DELETE", d.id, "", "", d.error);
        d.gone = r.status == 404; // already gone: what we wanted
        if (!d.gone && !d.error)
            d.op = operation_from(d.zone, r, "instances.delete " + d.id, d.error);
    });
    parallel_for(deletes.size(), config_.parallel_deletes, [&](std::size_t i) {
        Delete& d = deletes[i];
        if (d.gone || d.error)
            return;
        d.op = await(d.op, "instances.delete " + d.id, d.error);
        if (!d.error)
            d.error = d.op.error;
    });
    for (const auto& d : deletes)
        if (!d.gone && d.error)
            errors[d.id] = d.error;
    return errors;
}

} // namespace burst

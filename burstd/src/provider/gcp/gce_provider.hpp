#pragma once
// Google Compute Engine, zonal, through the compute v1 REST API.
//
// Zones: a request's zone (one of Zones=, the first when it names none) is
// where the instance is inserted and its operation polled; the provider id
// "projects/P/zones/Z/instances/N" carries it, so a delete goes to the zone
// the instance is in.  list() covers every configured zone.
//
// Each node is one instance named after the node, labelled with the cluster,
// node and burstd id (label-safe encoded, see gce_labels.hpp).  A launch of
// several nodes of one machine type is one instances.bulkInsert with
// perInstanceProperties naming every node and minCount 1, so GCE creates as
// many as it can (one job's nodes, LaunchRequest::all_or_nothing: minCount
// = all of them, so GCE creates all or none); afterwards the labelled
// instances are listed to tell, node by node, which exist.  Otherwise each node is one instances.insert.  Both
// carry a requestId derived from the idempotency token, and an insert that
// meets an existing instance with our labels adopts it.  launch() and
// terminate() poll the zonal operations (up to OperationWait) so capacity and
// quota errors, which GCE reports only there, reach the caller.  terminate()
// deletes ParallelDeletes instances at a time (one per call).

#include "common/json_ref.hpp"
#include "model/clock.hpp"
#include "provider/cloud/bearer_token_source.hpp"
#include "provider/gcp/gcp_config.hpp"
#include "provider/http/http_transport.hpp"
#include "provider/provider.hpp"

#include <jansson.h>

#include <functional>
#include <memory>
#include <mutex>

namespace burst {

class GceProvider final : public Provider {
public:
    static constexpr const char* kName = "gcp";
    using Sleep = std::function<void(Seconds)>;

    GceProvider(HttpTransport& transport, std::unique_ptr<BearerTokenSource> tokens, GcpProviderConfig config,
                const Clock& clock, Sleep sleep);

    std::string_view name() const override { return kName; }
    std::vector<std::string> zones() const override { return config_.zones; }
    std::vector<LaunchResult> launch(const std::vector<LaunchRequest>& requests) override;
    // instances.bulkInsert creates at most 1000 instances per request.
    std::size_t launch_batch_limit() const override { return config_.bulk_insert ? 1000 : 1; }
    ListResult list(const InstanceTags& owner) override;
    std::map<std::string, ProviderError> terminate(const std::vector<std::string>& provider_ids) override;

    // "projects/P/zones/Z/instances/N": the provider id of instance N in zone Z.
    std::string instance_id(const std::string& zone, const std::string& instance_name) const;

private:
    struct Operation {
        std::string zone; // zonal operations are polled where they run
        std::string name;
        bool done = false;
        ProviderError error; // the operation's own errors once done
    };

    // One compute API call; `path` is below /compute/v1/.  Retries once with a
    // fresh token on 401.  error is set unless the answer is 2xx.
    HttpResponse call(const std::string& method, const std::string& path, const std::string& query,
                      const std::string& body, ProviderError& error);
    // Reads an operation from an API answer.
    Operation operation_from(const std::string& zone, const HttpResponse& response, const std::string& what,
                             ProviderError& error) const;
    // Polls until DONE or OperationWait has passed (done stays false then).
    Operation await(Operation op, const std::string& what, ProviderError& error);
    std::string zone_path(const std::string& zone) const;
    // The request's zone, or the first configured one.
    std::string zone_of(const LaunchRequest& request) const;
    std::string machine_type(const LaunchRequest& request) const;
    // instanceProperties (bulk) or the instance resource (insert).
    JsonRef instance_properties(const LaunchRequest& request, bool bulk) const;
    // Our instances in one zone.
    bool owned_instances(const std::string& zone, const InstanceTags& owner, std::vector<ProviderInstance>& out,
                         ProviderError& error);
    ProviderInstance describe(const std::string& zone, const json_t* instance) const;
    LaunchResult insert_one(const LaunchRequest& request);
    // Adopts the existing instance named after the node if its labels are ours.
    LaunchResult adopt(const LaunchRequest& request, const ProviderError& conflict);
    void bulk_insert(const std::vector<LaunchRequest>& requests, std::vector<LaunchResult>& results);

    HttpTransport& transport_;
    std::unique_ptr<BearerTokenSource> tokens_;
    GcpProviderConfig config_;
    const Clock& clock_;
    Sleep sleep_;
    std::mutex tokens_mutex_; // calls come from several threads; the token source is theirs to share
};

} // namespace burst

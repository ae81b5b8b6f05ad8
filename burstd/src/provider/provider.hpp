#pragma once
// A cloud (or the local machine) that can start and stop instances backing
// Slurm CLOUD nodes.  Calls are blocking; burstd runs them on its worker pool.
// Implementations never throw for provider-side failures: they classify them.

#include "model/clock.hpp"
#include "model/instance.hpp"
#include "model/provider_instance.hpp"
#include "model/provider_error.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace burst {

// Tags every instance carries, so that listing by tag finds exactly ours.
struct InstanceTags {
    std::string cluster;
    std::string node;
    std::string burstd_id; // identifies the burstd installation that owns it
};

struct LaunchRequest {
    std::string node;          // Slurm node name
    std::string instance_type;
    std::string idempotency_token; // same token -> the provider creates at most one instance
    InstanceTags tags;
    bool spot = false;
    // One of the zones the provider or the node group names (GCP zone, Azure
    // availability zone, OpenStack availability zone); empty = the provider's
    // own default.  A capacity error is about this type in this zone.
    std::string zone;
    // Set on every request of a launch() call for one job's nodes: the call
    // creates all of them or none.  Where the API takes a minimum count
    // (CreateFleet MinTargetCapacity, bulkInsert minCount) the provider asks
    // for that; elsewhere it launches as usual and the caller terminates
    // what a partial success created.
    bool all_or_nothing = false;
};

struct LaunchResult {
    std::string node;
    std::string provider_id; // empty on error
    std::string address;     // may be empty until the instance is running
    ProviderError error;
};

struct ListResult {
    std::vector<ProviderInstance> instances;
    ProviderError error;
};

class Provider {
public:
    virtual ~Provider() = default;
    virtual std::string_view name() const = 0;
    // The zones this provider is configured to launch into, in preference
    // order (a node group's own Zones= overrides them).  Empty: the provider
    // places instances itself (AWS spreads over its subnets' zones in one
    // CreateFleet; local has no zones).
    virtual std::vector<std::string> zones() const { return {}; }
    // Launch one instance per request; results are per node, in request order,
    // so a partial success is visible.
    virtual std::vector<LaunchResult> launch(const std::vector<LaunchRequest>& requests) = 0;
    // How many requests of one instance type, zone and market one launch()
    // takes at once, in one API call (CreateFleet, bulkInsert, Nova's
    // max_count) or in calls the provider makes in parallel itself (Azure):
    // burstd sends batches of up to this many.  1: burstd launches the
    // nodes in parallel itself, a launch() per node.
    virtual std::size_t launch_batch_limit() const { return 1; }
    // Every instance carrying these cluster and burstd_id tags, not yet gone.
    virtual ListResult list(const InstanceTags& owner) = 0;
    // Terminate by provider id; per-id errors in the result map (absent = ok).
    virtual std::map<std::string, ProviderError> terminate(const std::vector<std::string>& provider_ids) = 0;
};

} // namespace burst

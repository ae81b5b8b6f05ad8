#pragma once
// OpenStack through Keystone v3 and Nova (compute API microversion 2.79).
//
// Nova has no client token, so launch() first looks for a live server with
// the node's tag and the request's idempotency token in its metadata and
// adopts it instead of creating a second one.  After creating, launch() waits
// (up to schedule_wait) for the scheduler's verdict: a server that goes ERROR
// with "No valid host was found" is a capacity error, and is deleted so that
// it holds no quota.  Several nodes of one flavor and zone are one POST
// (min_count/max_count, NovaBatch): Nova schedules a request's servers all or
// none, and for one job's nodes min_count makes its quota check all or none
// too.  Servers are deleted ParallelDeletes at a time (Nova deletes one per
// call); the transport is thread-safe and the Keystone session is shared
// behind a mutex.

#include "model/clock.hpp"
#include "provider/http/http_transport.hpp"
#include "provider/openstack/keystone_session.hpp"
#include "provider/openstack/nova_server.hpp"
#include "provider/openstack/openstack_settings.hpp"
#include "provider/provider.hpp"

#include <functional>
#include <mutex>

namespace burst {

class OpenStackProvider final : public Provider {
public:
    using Sleep = std::function<void(Seconds)>;

    OpenStackProvider(HttpTransport& transport, OpenStackCredentials credentials, OpenStackSettings settings,
                      const Clock& clock, Sleep sleep);

    std::string_view name() const override { return "openstack"; }
    std::vector<std::string> zones() const override { return settings_.zones; }
    std::vector<LaunchResult> launch(const std::vector<LaunchRequest>& requests) override;
    std::size_t launch_batch_limit() const override { return settings_.batch_size; }
    ListResult list(const InstanceTags& owner) override;
    std::map<std::string, ProviderError> terminate(const std::vector<std::string>& provider_ids) override;

private:
    // One compute API call with the session's token; on 401 authenticates
    // again and retries once.  error is set unless the answer is 2xx.
    HttpResponse call(const std::string& method, const std::string& path, const std::string& query,
                      const std::string& body, ProviderError& error);
    // Servers with all these tags (every page).
    bool servers_tagged(const std::vector<std::string>& tags, std::vector<NovaServer>& out, ProviderError& error);
    // Nova's list views leave out "fault"; a single server's view has it.
    NovaServer with_fault(const NovaServer& server);
    LaunchResult launch_one(const LaunchRequest& request);
    // Waits for Nova's scheduler to place the server or give up on it.
    void await_schedule(LaunchResult& result);
    // One POST for requests of one flavor, zone and owner; fills results.
    void launch_batch(const std::vector<LaunchRequest>& requests, std::vector<LaunchResult>& results);
    // launch_batch() of requests [from, to), into the same results.
    void launch_range(const std::vector<LaunchRequest>& requests, std::vector<LaunchResult>& results,
                      std::size_t from, std::size_t to);
    // Lists the batch's live servers until none is being scheduled or
    // ScheduleWait has passed; false with error set if listing failed.
    bool await_batch(const NovaBatch& batch, const std::vector<std::string>& tags, std::vector<NovaServer>& servers,
                     ProviderError& error);

    HttpTransport& transport_;
    OpenStackSettings settings_;
    const Clock& clock_;
    Sleep sleep_;
    KeystoneSession session_;
    std::mutex session_mutex_;
};

// The error a server in ERROR stands for: capacity for "No valid host",
// otherwise transient (Nova may place the next one).
ProviderError server_fault_error(const NovaServer& server);

} // namespace burst

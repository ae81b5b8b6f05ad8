#pragma once
// OpenStack through Keystone v3 and Nova (compute API microversion 2.79).
//
// Nova has no client token, so launch() first looks for a live server with
// the node's tag and the request's idempotency token in its metadata and
// adopts it instead of creating a second one.  After creating, launch() waits
// (up to schedule_wait) for the scheduler's verdict: a server that goes ERROR
// with "No valid host was found" is a capacity error, and is deleted so that
// it holds no quota.  Calls are serialized: the token cache and the
// transport's connection belong to one caller at a time.

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

    HttpTransport& transport_;
    OpenStackSettings settings_;
    const Clock& clock_;
    Sleep sleep_;
    KeystoneSession session_;
    std::mutex mutex_;
};

// The error a server in ERROR stands for: capacity for "No valid host",
// otherwise transient (Nova may place the next one).
ProviderError server_fault_error(const NovaServer& server);

} // namespace burst

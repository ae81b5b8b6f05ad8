#include "provider/openstack/openstack_provider.hpp"

#include "provider/cloud/parallel_for.hpp"
#include "provider/cloud/uri_encoding.hpp"
#include "provider/openstack/openstack_error.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

namespace burst {

namespace {

constexpr const char* kMicroversion = "compute 2.79";
constexpr int kMaxPages = 10000; // a marker that never advances must not loop forever

std::string join(const std::vector<std::string>& words, char sep)
{
    std::string out;
    for (const auto& w : words)
        out += (out.empty() ? "" : std::string(1, sep)) + w;
    return out;
}

} // namespace

ProviderError server_fault_error(const NovaServer& server)
{
    const std::string what = "server " + server.id + " (" + server.name + ") went to ERROR: " +
                             (server.fault_message.empty() ? "no fault recorded" : server.fault_message);
    return {is_no_valid_host(server.fault_message) ? ProviderErrorKind::Capacity : ProviderErrorKind::Transient, what,
            0};
}

OpenStackProvider::OpenStackProvider(HttpTransport& transport, OpenStackCredentials credentials,
                                     OpenStackSettings settings, const Clock& clock, Sleep sleep)
    : transport_(transport), settings_(std::move(settings)), clock_(clock), sleep_(std::move(sleep)),
      session_(transport, std::move(credentials), clock, settings_.region, settings_.interface)
{
}

HttpResponse OpenStackProvider::call(const std::string& method, const std::string& path, const std::string& query,
                                     const std::string& body, ProviderError& error)
{
    HttpResponse response;
    for (int attempt = 0; attempt < 2; ++attempt) {
        std::unique_lock<std::mutex> lock(session_mutex_);
        const std::string token = session_.token(error);
        const ServiceUrl compute = session_.compute_endpoint();
        lock.unlock();
        if (error)
            return response;
        HttpRequest req;
        req.origin = compute.origin;
        req.method = method;
        req.path = compute.path + path;
        req.query = query;
        req.headers = {{"X-Auth-Token", token}, {"Accept", "application/json"}, {"OpenStack-API-Version", kMicroversion}};
        if (!body.empty())
            req.headers.push_back({"Content-Type", "application/json"});
        req.body = body;
        response = transport_.perform(req);
        if (response.status != 401)
            break;
        const std::lock_guard<std::mutex> relock(session_mutex_);
        session_.invalidate(); // revoked or expired early: one fresh token, then it is an auth error
    }
    error = classify_openstack_response(response, "nova " + method + " " + path);
    return response;
}

bool OpenStackProvider::servers_tagged(const std::vector<std::string>& tags, std::vector<NovaServer>& out,
                                       ProviderError& error)
{
    const std::string base = "tags=" + uri_encode(join(tags, ',')) + "&limit=" + std::to_string(settings_.page_size);
    std::string marker;
    for (int page_no = 0; page_no < kMaxPages; ++page_no) {
        const HttpResponse r =
            call("GET", "/servers/detail", marker.empty() ? base : base + "&marker=" + uri_encode(marker), "", error);
        if (error)
            return false;
        NovaServerPage page;
        std::string why;
        if (!parse_server_page(r.body, page, why)) {
            error = {ProviderErrorKind::Transient, "nova GET /servers/detail: " + why, 0};
            return false;
        }
        for (auto& s : page.servers)
            out.push_back(std::move(s));
        if (!page.has_next || page.servers.empty() || out.back().id == marker)
            return true;
        marker = out.back().id;
    }
    error = {ProviderErrorKind::Transient, "nova GET /servers/detail: more than " + std::to_string(kMaxPages) + " pages",
             0};
    return false;
}

std::vector<LaunchResult> OpenStackProvider::launch(const std::vector<LaunchRequest>& requests)
{
    bool uniform = requests.size() > 1;
    for (std::size_t i = 1; uniform && i < requests.size(); ++i) {
        const LaunchRequest& a = requests.front();
        const LaunchRequest& b = requests[i];
        uniform = a.instance_type == b.instance_type && a.zone == b.zone && a.all_or_nothing == b.all_or_nothing &&
                  a.tags.cluster == b.tags.cluster && a.tags.burstd_id == b.tags.burstd_id;
    }
    std::vector<LaunchResult> results;
    results.reserve(requests.size());
    if (uniform) {
        for (const auto& req : requests)
            results.push_back(LaunchResult{req.node, "", "", {}});
        for (std::size_t from = 0; from < requests.size(); from += settings_.batch_size)
            launch_range(requests, results, from, std::min(requests.size(), from + settings_.batch_size));
        return results;
    }
    for (const auto& req : requests)
        results.push_back(launch_one(req));
    return results;
}

void OpenStackProvider::launch_batch(const std::vector<LaunchRequest>& requests, std::vector<LaunchResult>& results)
{
    if (requests.size() == 1) {
        results[0] = launch_one(requests[0]);
        return;
    }
    const NovaBatch batch = nova_batch(requests);
    if (batch.nodes.empty()) {
        // Their hostlist does not fit one metadata value: two smaller batches.
        launch_range(requests, results, 0, requests.size() / 2);
        launch_range(requests, results, requests.size() / 2, requests.size());
        return;
    }
    const std::string what = "nova POST /servers (" + batch.nodes + " as " + batch.name + ")";
    auto fail_all = [&](const ProviderError& error) {
        for (auto& r : results)
            r.error = error;
    };
    std::string body;
    std::vector<std::string> tags;
    try {
        body = create_batch_body(requests, batch, settings_);
        tags = owner_tags(requests.front().tags);
        tags.push_back(batch.tag);
    } catch (const std::invalid_argument& e) {
        fail_all({ProviderErrorKind::Invalid, what + ": " + e.what(), 0});
        return;
    }
    ProviderError error;
    std::vector<NovaServer> servers;
    if (!servers_tagged(tags, servers, error))
        return fail_all(error);
    const bool adopted = std::any_of(servers.begin(), servers.end(), [](const NovaServer& s) { return !is_gone(s); });
    if (!adopted) {
        call("POST", "/servers", "", body, error);
        if (error)
            return fail_all(error);
    }
    servers.clear();
    if (!await_batch(batch, tags, servers, error)) {
        // Nova has the request: relaunching the same nodes adopts its servers.
        return fail_all(error);
    }
    std::map<std::string, const NovaServer*> by_node;
    for (const auto& s : servers) {
        auto token = s.metadata.find(kMetaToken);
        if (token != s.metadata.end() && token->second == batch.token)
            by_node[server_node(s)] = &s;
    }
    for (std::size_t i = 0; i < requests.size(); ++i) {
        LaunchResult& r = results[i];
        auto found = by_node.find(requests[i].node);
        if (found == by_node.end()) {
            // Nova creates fewer than max_count only when its quota allows no
            // more.  A batch adopted from an earlier call may have lost a
            // server since: that node is launched again, in a batch of its own.
            r.error = adopted ? ProviderError{ProviderErrorKind::Transient,
                                              what + ": the batch sent earlier has no server for " + r.node +
                                                  " any more",
                                              0}
                              : ProviderError{ProviderErrorKind::Quota,
                                              what + ": no server for " + r.node +
                                                  " (Nova creates fewer than asked when its quota allows no more)",
                                              0};
            continue;
        }
        const NovaServer& s = *found->second;
        if (s.status == "ERROR") {
            r.error = server_fault_error(s.fault_message.empty() ? with_fault(s) : s);
            ProviderError ignored;
            call("DELETE", "/servers/" + s.id, "", "", ignored);
            continue;
        }
        r.provider_id = s.id;
        r.address = s.address;
    }
}

void OpenStackProvider::launch_range(const std::vector<LaunchRequest>& requests, std::vector<LaunchResult>& results,
                                     std::size_t from, std::size_t to)
{
    const auto first = static_cast<std::ptrdiff_t>(from);
    const auto last = static_cast<std::ptrdiff_t>(to);
    std::vector<LaunchResult> part(results.begin() + first, results.begin() + last);
    launch_batch({requests.begin() + first, requests.begin() + last}, part);
    std::copy(part.begin(), part.end(), results.begin() + first);
}

bool OpenStackProvider::await_batch(const NovaBatch& batch, const std::vector<std::string>& tags,
                                    std::vector<NovaServer>& servers, ProviderError& error)
{
    const Time deadline = clock_.now() + settings_.schedule_wait;
    while (true) {
        std::vector<NovaServer> listed;
        ProviderError list_error;
        if (!servers_tagged(tags, listed, list_error)) {
            const bool retry = list_error.kind == ProviderErrorKind::Transient ||
                               list_error.kind == ProviderErrorKind::Throttled;
            if (!retry || clock_.now() >= deadline) {
                error = list_error;
                return false;
            }
            sleep_(settings_.poll_interval);
            continue;
        }
        servers.clear();
        for (auto& s : listed)
            if (!is_gone(s) && s.name.compare(0, batch.name.size(), batch.name) == 0)
                servers.push_back(std::move(s));
        const bool scheduling = std::any_of(servers.begin(), servers.end(), [](const NovaServer& s) {
            return s.status == "BUILD" && s.task_state == "scheduling";
        });
        if (!scheduling || clock_.now() >= deadline)
            return true;
        sleep_(settings_.poll_interval);
    }
}

LaunchResult OpenStackProvider::launch_one(const LaunchRequest& request)
{
    LaunchResult result;
    result.node = request.node;
    std::string body;
    std::vector<std::string> tags;
    try {
        body = create_server_body(request, settings_);
        tags = owner_tags(request.tags);
        tags.push_back(node_tag(request.node));
    } catch (const std::invalid_argument& e) {
        result.error = {ProviderErrorKind::Invalid, "node " + request.node + ": " + e.what(), 0};
        return result;
    }

    std::vector<NovaServer> existing;
    if (!servers_tagged(tags, existing, result.error))
        return result;
    for (const auto& s : existing) {
        auto token = s.metadata.find(kMetaToken);
        if (!is_gone(s) && token != s.metadata.end() && token->second == request.idempotency_token) {
            result.provider_id = s.id;
            result.address = s.address;
            await_schedule(result);
            return result;
        }
    }

    const HttpResponse r = call("POST", "/servers", "", body, result.error);
    if (result.error)
        return result;
    std::string why;
    if (!parse_created_server_id(r.body, result.provider_id, why)) {
        // Nova may have created it: the next launch with this token adopts it.
        result.error = {ProviderErrorKind::Transient, "nova POST /servers: " + why, 0};
        return result;
    }
    await_schedule(result);
    return result;
}

void OpenStackProvider::await_schedule(LaunchResult& result)
{
    const Time deadline = clock_.now() + settings_.schedule_wait;
    while (true) {
        ProviderError error;
        const HttpResponse r = call("GET", "/servers/" + result.provider_id, "", "", error);
        NovaServer server;
        std::string why;
        if (error || !parse_server(r.body, server, why)) {
            const bool retry = error.kind == ProviderErrorKind::Transient || error.kind == ProviderErrorKind::Throttled;
            if (!retry || clock_.now() >= deadline)
                return; // the server exists; list() will tell how it fares
            sleep_(settings_.poll_interval);
            continue;
        }
        result.address = server.address;
        if (server.status == "ERROR") {
            result.error = server_fault_error(server);
            ProviderError ignored;
            call("DELETE", "/servers/" + server.id, "", "", ignored);
            result.provider_id.clear();
            return;
        }
        if (server.status != "BUILD" || server.task_state != "scheduling" || clock_.now() >= deadline)
            return;
        sleep_(settings_.poll_interval);
    }
}

NovaServer OpenStackProvider::with_fault(const NovaServer& server)
{
    ProviderError error;
    const HttpResponse r = call("GET", "/servers/" + server.id, "", "", error);
    NovaServer shown;
    std::string why;
    if (error || !parse_server(r.body, shown, why))
        return server;
    return shown;
}

ListResult OpenStackProvider::list(const InstanceTags& owner)
{
    ListResult result;
    std::vector<NovaServer> servers;
    try {
        if (!servers_tagged(owner_tags(owner), servers, result.error))
            return result;
    } catch (const std::invalid_argument& e) {
        result.error = {ProviderErrorKind::Invalid, e.what(), 0};
        return result;
    }
    for (const auto& s : servers) {
        if (is_gone(s))
            continue;
        ProviderInstance inst;
        inst.provider_id = s.id;
        inst.node = server_node(s);
        inst.state = s.status;
        inst.address = s.address;
        if (s.status == "ERROR")
            inst.error = server_fault_error(s.fault_message.empty() ? with_fault(s) : s);
        result.instances.push_back(std::move(inst));
    }
    return result;
}

std::map<std::string, ProviderError> OpenStackProvider::terminate(const std::vector<std::string>& provider_ids)
{
    std::map<std::string, ProviderError> errors;
    std::vector<std::string> ids;
    for (const auto& id : provider_ids) {
        if (id.empty() || id.find_first_of("/?#% ") != std::string::npos)
            errors[id] = {ProviderErrorKind::Invalid, "'" + id + "' is not a Nova server id", 0};
        else
            ids.push_back(id);
    }
    // Nova deletes one server per call: up to ParallelDeletes of them at once.
    std::vector<ProviderError> outcome(ids.size());
    parallel_for(ids.size(), settings_.parallel_deletes, [&](std::size_t i) {
        const HttpResponse r = call("DELETE", "/servers/" + ids[i], "", "", outcome[i]);
        if (r.status == 404) // already gone, which is what was asked
            outcome[i] = {};
    });
    for (std::size_t i = 0; i < ids.size(); ++i)
        if (outcome[i])
            errors[ids[i]] = outcome[i];
    return errors;
}

} // namespace burst

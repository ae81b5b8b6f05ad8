#include "provider/openstack/openstack_provider.hpp"

#include "provider/cloud/uri_encoding.hpp"
#include "provider/openstack/openstack_error.hpp"

#include <stdexcept>

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
        const std::string token = session_.token(error);
        if (error)
            return response;
        HttpRequest req;
        req.origin = session_.compute_endpoint().origin;
        req.method = method;
        req.path = session_.compute_endpoint().path + path;
        req.query = query;
        req.headers = {{"X-Auth-Token", token}, {"Accept", "application/json"}, {"OpenStack-API-Version", kMicroversion}};
        if (!body.empty())
            req.headers.push_back({"Content-Type", "application/json"});
        req.body = body;
        response = transport_.perform(req);
        if (response.status != 401)
            break;
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
    const std::lock_guard<std::mutex> lock(mutex_);
    std::vector<LaunchResult> results;
    results.reserve(requests.size());
    for (const auto& req : requests)
        results.push_back(launch_one(req));
    return results;
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
    const std::lock_guard<std::mutex> lock(mutex_);
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
        auto node = s.metadata.find(kMetaNode);
        inst.node = node != s.metadata.end() ? node->second : s.name;
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
    const std::lock_guard<std::mutex> lock(mutex_);
    std::map<std::string, ProviderError> errors;
    for (const auto& id : provider_ids) {
        if (id.empty() || id.find_first_of("/?#% ") != std::string::npos) {
            errors[id] = {ProviderErrorKind::Invalid, "'" + id + "' is not a Nova server id", 0};
            continue;
        }
        ProviderError error;
        const HttpResponse r = call("DELETE", "/servers/" + id, "", "", error);
        if (error && r.status != 404) // 404: already gone, which is what was asked
            errors[id] = error;
    }
    return errors;
}

} // namespace burst

#include "provider/openstack/nova_server.hpp"

#include "common/json_ref.hpp"
#include "common/json_fields.hpp"

#include <cstdlib>
#include <stdexcept>

namespace burst {

namespace {

// Nova's limits: tags are at most 60 characters without ',' or '/'.
std::string checked_tag(const std::string& tag)
{
    if (tag.size() > 60 || tag.find_first_of(",/") != std::string::npos)
        throw std::invalid_argument("'" + tag + "' cannot be a Nova server tag (at most 60 characters, no ',' or '/')");
    return tag;
}

std::string first_address(json_t* addresses)
{
    std::string fallback;
    const char* net;
    json_t* list;
    json_object_foreach(addresses, net, list)
    {
        size_t i;
        json_t* a;
        json_array_foreach(list, i, a)
        {
            const std::string addr = string_field(a, "addr");
            if (addr.empty())
                continue;
            const bool v4 = json_integer_value(json_object_get(a, "version")) == 4;
            const std::string type = string_field(a, "OS-EXT-IPS:type");
            if (v4 && (type.empty() || type == "fixed"))
                return addr;
            if (fallback.empty())
                fallback = addr;
        }
    }
    return fallback;
}

bool read_server(json_t* s, const std::string& where, NovaServer& out, std::string& why)
{
    if (!json_is_object(s)) {
        why = where + ": expected an object";
        return false;
    }
    out = NovaServer{};
    out.id = string_field(s, "id");
    out.status = string_field(s, "status");
    if (out.id.empty() || out.status.empty()) {
        why = where + ": id and status must be non-empty strings";
        return false;
    }
    out.name = string_field(s, "name");
    out.task_state = string_field(s, "OS-EXT-STS:task_state");
    const char* key;
    json_t* v;
    json_object_foreach(json_object_get(s, "metadata"), key, v)
    {
        if (json_is_string(v))
            out.metadata[key] = json_string_value(v);
    }
    size_t i;
    json_array_foreach(json_object_get(s, "tags"), i, v)
    {
        if (json_is_string(v))
            out.tags.emplace_back(json_string_value(v));
    }
    out.address = first_address(json_object_get(s, "addresses"));
    json_t* fault = json_object_get(s, "fault");
    if (json_is_object(fault)) {
        out.fault_message = string_field(fault, "message");
        out.fault_code = static_cast<long>(json_integer_value(json_object_get(fault, "code")));
    }
    return true;
}

JsonRef load(const std::string& body, std::string& why)
{
    json_error_t err;
    JsonRef root(json_loads(body.c_str(), 0, &err));
    if (!root)
        why = "not JSON (line " + std::to_string(err.line) + ": " + err.text + ")";
    return root;
}

} // namespace

std::vector<std::string> owner_tags(const InstanceTags& owner)
{
    return {checked_tag("burst-cluster=" + owner.cluster), checked_tag("burst-id=" + owner.burstd_id)};
}

std::string node_tag(const std::string& node)
{
    return checked_tag("burst-node=" + node);
}

std::string create_server_body(const LaunchRequest& request, const OpenStackSettings& settings)
{
    if (request.node.empty() || request.instance_type.empty() || settings.image.empty())
        throw std::invalid_argument("a server needs a node name, a flavor and an image");
    for (const std::string* v : {&request.tags.cluster, &request.tags.burstd_id, &request.idempotency_token})
        if (v->size() > 255)
            throw std::invalid_argument("'" + *v + "' is longer than Nova's 255-character metadata values");
    JsonRef tags(json_array());
    for (const auto& t : owner_tags(request.tags))
        json_array_append_new(tags.get(), json_string(t.c_str()));
    json_array_append_new(tags.get(), json_string(node_tag(request.node).c_str()));
    json_t* networks = (settings.network == "none" || settings.network == "auto")
                           ? json_string(settings.network.c_str())
                           : json_pack("[{s:s}]", "uuid", settings.network.c_str());
    JsonRef body(json_pack("{s:{s:s, s:s, s:s, s:o, s:i, s:i, s:{s:s, s:s, s:s, s:s}, s:O}}", "server", "name",
                           request.node.c_str(), "flavorRef", request.instance_type.c_str(), "imageRef",
                           settings.image.c_str(), "networks", networks, "min_count", 1, "max_count", 1, "metadata",
                           kMetaCluster, request.tags.cluster.c_str(), kMetaNode, request.node.c_str(), kMetaOwner,
                           request.tags.burstd_id.c_str(), kMetaToken, request.idempotency_token.c_str(), "tags",
                           tags.get()));
    if (!body)
        throw std::invalid_argument("cannot build the server body (a field is not valid UTF-8)");
    // "No valid host" then means none in this zone: burstd tries the next.
    const std::string zone = request.zone.empty() && !settings.zones.empty() ? settings.zones.front() : request.zone;
    if (!zone.empty())
        json_object_set_new(json_object_get(body.get(), "server"), "availability_zone", json_string(zone.c_str()));
    char* text = json_dumps(body.get(), JSON_COMPACT);
    std::string out = text ? text : "";
    std::free(text);
    return out;
}

bool parse_created_server_id(const std::string& body, std::string& id, std::string& why)
{
    JsonRef root = load(body, why);
    if (!root)
        return false;
    id = string_field(json_object_get(root.get(), "server"), "id");
    if (id.empty()) {
        why = "server.id missing";
        return false;
    }
    return true;
}

bool parse_server(const std::string& body, NovaServer& server, std::string& why)
{
    JsonRef root = load(body, why);
    return root && read_server(json_object_get(root.get(), "server"), "server", server, why);
}

bool parse_server_page(const std::string& body, NovaServerPage& page, std::string& why)
{
    JsonRef root = load(body, why);
    if (!root)
        return false;
    json_t* servers = json_object_get(root.get(), "servers");
    if (!json_is_array(servers)) {
        why = "servers: expected an array";
        return false;
    }
    page = NovaServerPage{};
    size_t i;
    json_t* s;
    json_array_foreach(servers, i, s)
    {
        NovaServer server;
        if (!read_server(s, "servers[" + std::to_string(i) + "]", server, why))
            return false;
        page.servers.push_back(std::move(server));
    }
    json_t* link;
    json_array_foreach(json_object_get(root.get(), "servers_links"), i, link)
    {
        if (string_field(link, "rel") == "next")
            page.has_next = true;
    }
    return true;
}

bool is_gone(const NovaServer& server)
{
    return server.status == "DELETED" || server.status == "SOFT_DELETED" || server.task_state == "deleting";
}

} // namespace burst

#include "provider/openstack/nova_server.hpp"

#include "common/json_ref.hpp"
#include "common/json_fields.hpp"
#include "common/json_text.hpp"
#include "model/hostlist.hpp"
#include "provider/cloud/sha256.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

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

namespace {

// `whose` is the metadata saying which node(s) the servers are: burst-node
// for one node's server, burst-nodes for a batch's.
std::string server_body(const std::string& name, const LaunchRequest& first,
                        const std::pair<const char*, std::string>& whose, const std::string& token,
                        const std::vector<std::string>& tag_list, json_int_t min_count, json_int_t max_count,
                        const OpenStackSettings& settings)
{
    if (name.empty() || first.instance_type.empty() || settings.image.empty())
        throw std::invalid_argument("a server needs a node name, a flavor and an image");
    for (const std::string* v : {&first.tags.cluster, &first.tags.burstd_id, &token})
        if (v->size() > 255)
            throw std::invalid_argument("'" + *v + "' is longer than Nova's 255-character metadata values");
    JsonRef tags(json_array());
    for (const auto& t : tag_list)
        json_array_append_new(tags.get(), json_string(t.c_str()));
    json_t* networks = (settings.network == "none" || settings.network == "auto")
                           ? json_string(settings.network.c_str())
                           : json_pack("[{s:s}]", "uuid", settings.network.c_str());
    JsonRef metadata(json_object());
    const std::pair<const char*, const std::string*> entries[] = {
        {kMetaCluster, &first.tags.cluster}, {whose.first, &whose.second}, {kMetaOwner, &first.tags.burstd_id},
        {kMetaToken, &token}};
    for (const auto& [key, value] : entries)
        if (json_object_set_new(metadata.get(), key, json_string(value->c_str())) != 0) // NULL: not UTF-8
            throw std::invalid_argument(std::string("cannot build the server body (metadata ") + key + " is not valid UTF-8)");
    JsonRef body(json_pack("{s:{s:s, s:s, s:s, s:o, s:I, s:I, s:O, s:O}}", "server", "name", name.c_str(), "flavorRef",
                           first.instance_type.c_str(), "imageRef", settings.image.c_str(), "networks", networks,
                           "min_count", min_count, "max_count", max_count, "metadata", metadata.get(), "tags",
                           tags.get()));
    if (!body)
        throw std::invalid_argument("cannot build the server body (a field is not valid UTF-8)");
    json_t* server = json_object_get(body.get(), "server");
    // "No valid host" then means none in this zone: burstd tries the next.
    const std::string zone = first.zone.empty() && !settings.zones.empty() ? settings.zones.front() : first.zone;
    if (!zone.empty())
        json_object_set_new(server, "availability_zone", json_string(zone.c_str()));
    return json_text(body.get());
}

} // namespace

std::string create_server_body(const LaunchRequest& request, const OpenStackSettings& settings)
{
    std::vector<std::string> tags = owner_tags(request.tags);
    tags.push_back(node_tag(request.node));
    return server_body(request.node, request, {kMetaNode, request.node}, request.idempotency_token, tags, 1, 1,
                       settings);
}

NovaBatch nova_batch(const std::vector<LaunchRequest>& requests)
{
    std::string joined = requests.empty() ? "" : requests.front().instance_type + '\n' + requests.front().zone;
    std::vector<std::string> nodes;
    for (const auto& r : requests) {
        joined += '\n' + r.idempotency_token;
        nodes.push_back(r.node);
    }
    const std::string digest = hex_lower(sha256(joined));
    NovaBatch batch{digest, "burst-batch=" + digest.substr(0, 32), "burst-" + digest.substr(0, 12), "", {}};
    try {
        std::string hostlist = compress_hostlist(nodes);
        std::vector<std::string> order = expand_hostlist(hostlist);
        std::vector<std::string> sorted_order = order;
        std::sort(sorted_order.begin(), sorted_order.end());
        std::sort(nodes.begin(), nodes.end());
        if (hostlist.size() <= 255 && sorted_order == nodes) {
            batch.nodes = std::move(hostlist);
            batch.order = std::move(order);
        }
    } catch (const HostlistError&) {
        // not a batch: the caller launches these nodes in smaller ones
    }
    return batch;
}

long batch_index(const std::string& batch_name, const std::string& server_name, std::size_t size)
{
    if (size == 0)
        return -1;
    if (server_name == batch_name)
        return 0; // Nova names a request's servers NAME-1.. only when its quota left it more than one
    const std::string prefix = batch_name + "-";
    const std::string digits = server_name.size() > prefix.size() ? server_name.substr(prefix.size()) : "";
    if (server_name.compare(0, prefix.size(), prefix) != 0 || digits.empty() || digits.size() > 9 ||
        digits[0] == '0' || digits.find_first_not_of("0123456789") != std::string::npos)
        return -1;
    const unsigned long n = std::stoul(digits);
    return n > size ? -1 : static_cast<long>(n - 1);
}

std::string server_node(const NovaServer& server)
{
    if (auto node = server.metadata.find(kMetaNode); node != server.metadata.end())
        return node->second;
    auto nodes = server.metadata.find(kMetaNodes);
    auto token = server.metadata.find(kMetaToken);
    if (nodes == server.metadata.end() || token == server.metadata.end() || token->second.size() < 12)
        return "";
    // Anyone in the project can set metadata: a list longer than a batch is no batch's.
    try {
        const std::vector<std::string> order = expand_hostlist(nodes->second);
        const long i = order.size() > kMaxNovaBatch ? -1 : batch_index("burst-" + token->second.substr(0, 12), server.name, order.size());
        return i < 0 ? "" : order[static_cast<std::size_t>(i)];
    } catch (const HostlistError&) {
        return "";
    }
}

std::string create_batch_body(const std::vector<LaunchRequest>& requests, const NovaBatch& batch,
                              const OpenStackSettings& settings)
{
    if (requests.empty())
        throw std::invalid_argument("a batch needs at least one server");
    if (batch.nodes.empty() || batch.order.size() != requests.size())
        throw std::invalid_argument("the nodes cannot be one batch (their hostlist is longer than 255 characters)");
    const LaunchRequest& first = requests.front();
    std::vector<std::string> tags = owner_tags(first.tags);
    tags.push_back(checked_tag(batch.tag));
    const auto n = static_cast<json_int_t>(requests.size());
    return server_body(batch.name, first, {kMetaNodes, batch.nodes}, batch.token, tags, first.all_or_nothing ? n : 1, n,
                       settings);
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

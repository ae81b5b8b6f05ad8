#pragma once
// Nova's view of a server, and the bodies burstd sends and reads for
// servers.  Every server burstd creates carries its owner both as server
// tags (Nova filters on them: GET /servers/detail?tags=a,b) and as metadata
// (which also holds the idempotency token, too long and too free-form for a tag).

#include "provider/openstack/openstack_settings.hpp"
#include "provider/provider.hpp"

#include <map>
#include <string>
#include <vector>

namespace burst {

struct NovaServer {
    std::string id;
    std::string name;
    std::string status;     // ACTIVE, BUILD, ERROR, DELETED, SOFT_DELETED, ...
    std::string task_state; // OS-EXT-STS:task_state; "" when null
    std::map<std::string, std::string> metadata;
    std::vector<std::string> tags;
    std::string address;       // first fixed IPv4 (else first address); "" when none
    std::string fault_message; // from "fault" when the server is in ERROR
    long fault_code = 0;
};

struct NovaServerPage {
    std::vector<NovaServer> servers;
    bool has_next = false; // servers_links has rel "next"
};

// Metadata keys burstd sets on its servers.
inline constexpr const char* kMetaCluster = "burst-cluster";
inline constexpr const char* kMetaNode = "burst-node";
inline constexpr const char* kMetaOwner = "burst-id";
inline constexpr const char* kMetaToken = "burst-token";

// Server tags meaning "this cluster, this burstd" (and this node).
std::vector<std::string> owner_tags(const InstanceTags& owner);
std::string node_tag(const std::string& node);

// Several nodes' servers created by one POST /servers (min_count and
// max_count).  Nova gives every server of the request the same tags and
// metadata and names them "<name>-1" ... "<name>-N" in request order (plain
// "<name>" when its quota left room for one).  So the metadata carries the
// batch's nodes as a Slurm hostlist (burst-nodes) and server NAME-K is the
// K-th node of it: what a guest's boot reads to know which node it is, and
// what list() reports.  The token is a digest of the nodes' own tokens,
// flavor and zone: a retried batch is found by its tag and adopted, never
// created twice.
struct NovaBatch {
    std::string token;              // burst-token metadata of its servers
    std::string tag;                // server tag "burst-batch=..." to list them by
    std::string name;               // servers are named name + "-" + (index + 1)
    std::string nodes;              // burst-nodes metadata: the nodes in server order, as a hostlist
    std::vector<std::string> order; // nodes expanded, in server order
};
inline constexpr const char* kMetaNodes = "burst-nodes";
// The most servers burstd asks one POST for (BatchSize=).
inline constexpr std::size_t kMaxNovaBatch = 1000;
// Empty nodes when the requests' nodes cannot be one batch: their hostlist
// is longer than a metadata value (255) or names a node twice.
NovaBatch nova_batch(const std::vector<LaunchRequest>& requests);
// The index of a batch's server by its name; -1 when the name is not one of the batch's.
long batch_index(const std::string& batch_name, const std::string& server_name, std::size_t size);
// The node of a server: its burst-node, or its place in its batch's
// burst-nodes; "" when it has neither.
std::string server_node(const NovaServer& server);

// The POST /servers body; throws std::invalid_argument when a field cannot
// be a Nova tag or metadata value (too long, ',' or '/').
std::string create_server_body(const LaunchRequest& request, const OpenStackSettings& settings);
// The POST /servers body for a batch of requests sharing flavor, zone and
// owner: max_count = every request; min_count = all of them for one job's
// nodes (all_or_nothing), else 1 (Nova then creates as many as its quota allows).
std::string create_batch_body(const std::vector<LaunchRequest>& requests, const NovaBatch& batch,
                              const OpenStackSettings& settings);

// Parsers return false with why set when the body is not what Nova sends.
bool parse_created_server_id(const std::string& body, std::string& id, std::string& why);
bool parse_server(const std::string& body, NovaServer& server, std::string& why);
bool parse_server_page(const std::string& body, NovaServerPage& page, std::string& why);

// Gone or going: burstd must not count it as a live instance.
bool is_gone(const NovaServer& server);

} // namespace burst

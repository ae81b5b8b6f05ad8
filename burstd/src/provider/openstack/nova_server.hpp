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

// The POST /servers body; throws std::invalid_argument when a field cannot
// be a Nova tag or metadata value (too long, ',' or '/').
std::string create_server_body(const LaunchRequest& request, const OpenStackSettings& settings);

// Parsers return false with why set when the body is not what Nova sends.
bool parse_created_server_id(const std::string& body, std::string& id, std::string& why);
bool parse_server(const std::string& body, NovaServer& server, std::string& why);
bool parse_server_page(const std::string& body, NovaServerPage& page, std::string& why);

// Gone or going: burstd must not count it as a live instance.
bool is_gone(const NovaServer& server);

} // namespace burst

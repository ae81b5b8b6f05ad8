#pragma once
// A service's base URL ("http://host:8774/v2.1") split the way HttpRequest
// wants it: origin and path prefix.

#include <optional>
#include <string>

namespace burst {

struct ServiceUrl {
    std::string origin; // "http://host:port"
    std::string path;   // "/v2.1", or "" for the root; never ends in '/'
};

// nullopt unless url is http(s)://host[:port][/path].
std::optional<ServiceUrl> split_service_url(const std::string& url);

} // namespace burst

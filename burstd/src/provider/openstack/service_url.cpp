#include "provider/openstack/service_url.hpp"

namespace burst {

std::optional<ServiceUrl> split_service_url(const std::string& url)
{
    std::size_t scheme_end;
    if (url.rfind("http://", 0) == 0)
        scheme_end = 7;
    else if (url.rfind("https://", 0) == 0)
        scheme_end = 8;
    else
        return std::nullopt;
    const auto slash = url.find('/', scheme_end);
    ServiceUrl s;
    s.origin = url.substr(0, slash);
    if (s.origin.size() == scheme_end || url.find_first_of("?#") != std::string::npos)
        return std::nullopt;
    if (slash != std::string::npos)
        s.path = url.substr(slash);
    while (!s.path.empty() && s.path.back() == '/')
        s.path.pop_back();
    return s;
}

} // namespace burst

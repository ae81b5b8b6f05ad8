#include "provider/http/http_message.hpp"

#include <cctype>
#include <cstdlib>

namespace burst {

bool header_name_equals(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    }
    return true;
}

namespace {

std::string first_header(const std::vector<HttpHeader>& headers, std::string_view name)
{
    for (const auto& h : headers) {
        if (header_name_equals(h.name, name))
            return h.value;
    }
    return {};
}

} // namespace

double retry_after_seconds(const HttpResponse& response)
{
    const std::string v = response.header("Retry-After");
    if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos)
        return 0;
    return std::strtod(v.c_str(), nullptr);
}

std::string HttpRequest::header(std::string_view name) const { return first_header(headers, name); }

std::string to_text(const HttpRequest& request)
{
    std::string out = request.method + " " + request.path;
    if (!request.query.empty())
        out += "?" + request.query;
    out += " HTTP/1.1\n";
    for (const auto& h : request.headers)
        out += h.name + ":" + h.value + "\n";
    out += "\n";
    out += request.body;
    return out;
}

std::string HttpResponse::header(std::string_view name) const { return first_header(headers, name); }

} // namespace burst

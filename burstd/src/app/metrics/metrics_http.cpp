#include "app/metrics/metrics_http.hpp"

#include <sstream>

namespace burst {

namespace {

const char* reason_of(int status)
{
    switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 431: return "Request Header Fields Too Large";
    case 505: return "HTTP Version Not Supported";
    default: return "Error";
    }
}

MetricsHttpReply reply(int status, const std::string& content_type, const std::string& body, bool with_body = true,
                       const std::string& extra_headers = "")
{
    MetricsHttpReply r;
    r.status = status;
    r.text = "HTTP/1.1 " + std::to_string(status) + " " + reason_of(status) + "\r\n" +
             "Content-Type: " + content_type + "\r\n" + "Content-Length: " + std::to_string(body.size()) + "\r\n" +
             extra_headers + "Connection: close\r\n\r\n" + (with_body ? body : std::string());
    return r;
}

MetricsHttpReply error(int status, const std::string& why, const std::string& extra_headers = "")
{
    return reply(status, "text/plain; charset=utf-8", why + "\n", true, extra_headers);
}

} // namespace

MetricsHttpReply metrics_http_too_large()
{
    return error(431, "request head longer than " + std::to_string(kMaxMetricsRequestHead) + " bytes");
}

MetricsHttpReply metrics_http_reply(const std::string& head, const std::function<std::string()>& render)
{
    auto eol = head.find("\r\n");
    std::string line = head.substr(0, eol);
    std::istringstream words(line);
    std::string method, target, version, extra;
    if (!(words >> method >> target >> version) || (words >> extra) || target.empty() || target[0] != '/')
        return error(400, "malformed request line");
    if (version.rfind("HTTP/1.", 0) != 0)
        return error(505, "only HTTP/1.x is spoken here");
    std::string path = target.substr(0, target.find('?'));
    if (method != "GET" && method != "HEAD")
        return error(405, "only GET and HEAD are allowed", "Allow: GET, HEAD\r\n");
    if (path != "/metrics")
        return error(404, "metrics are at /metrics");
    return reply(200, "text/plain; version=0.0.4; charset=utf-8", render(), method == "GET");
}

} // namespace burst

#pragma once
// An HTTP request or response as the providers build, sign and receive it.
// Header order and duplicates are kept exactly as given: request signing
// depends on both.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace burst {

struct HttpHeader {
    std::string name;
    std::string value;
};

struct HttpRequest {
    std::string origin; // "https://host[:port]"; empty for requests parsed from text
    std::string method;
    std::string path;   // as on the wire, before any '?'
    std::string query;  // as on the wire, after the '?', without it
    std::vector<HttpHeader> headers;
    std::string body;
    // Signs the request again, for signatures that carry the time (SigV4
    // allows 5 minutes): ThrottledTransport calls it when the request waited
    // for a token or a back-off.  Empty: sent as it is.
    std::function<void(HttpRequest&)> sign_again;

    // The first value of a header, matched case-insensitively; empty if absent.
    std::string header(std::string_view name) const;
};

struct HttpResponse {
    long status = 0; // 0 when the exchange failed before a status arrived
    std::vector<HttpHeader> headers;
    std::string body;
    std::string transport_error; // why no response arrived (timeout, refused, TLS); empty otherwise

    std::string header(std::string_view name) const;
};

bool header_name_equals(std::string_view a, std::string_view b);

// The response's Retry-After in seconds; 0 when absent or not a number of
// seconds (an HTTP-date is rare from cloud APIs, and unknown is safe: the
// caller backs off on its own schedule).
double retry_after_seconds(const HttpResponse& response);

// The request as HTTP/1.1 text: request line, "Name:value" lines, blank line,
// body.  The inverse of parse_http_request.
std::string to_text(const HttpRequest& request);

} // namespace burst

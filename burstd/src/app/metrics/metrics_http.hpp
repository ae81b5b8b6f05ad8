#pragma once
// The HTTP/1.1 side of the metrics endpoint, without I/O: one request head in,
// one complete response out (the connection is then closed).  GET and HEAD of
// /metrics get the exposition; any other path is 404, any other method 405
// (with Allow), a malformed request line 400, a head over kMaxHeadBytes 431.

#include <cstddef>
#include <functional>
#include <string>

namespace burst {

struct MetricsHttpReply {
    int status = 200;
    std::string text; // the whole response: status line, headers, body
};

constexpr std::size_t kMaxMetricsRequestHead = 8192;

// `head` is everything up to and including the blank line.  `render` is
// called only for a request that gets the metrics.
MetricsHttpReply metrics_http_reply(const std::string& head, const std::function<std::string()>& render);

// For a request head that outgrew kMaxMetricsRequestHead.
MetricsHttpReply metrics_http_too_large();

} // namespace burst

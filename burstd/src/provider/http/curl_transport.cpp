#include "provider/http/curl_transport.hpp"

#include <mutex>
#include <stdexcept>
#include <utility>

namespace burst {

namespace {

struct SlistDeleter {
    void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};
using Slist = std::unique_ptr<curl_slist, SlistDeleter>;

size_t write_body(char* data, size_t size, size_t n, void* user)
{
    static_cast<HttpResponse*>(user)->body.append(data, size * n);
    return size * n;
}

// Header lines of the last response only: a redirect or "100 Continue"
// starts a new status line, which clears what came before.
size_t write_header(char* data, size_t size, size_t n, void* user)
{
    auto* r = static_cast<HttpResponse*>(user);
    std::string line(data, size * n);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
        line.pop_back();
    if (line.rfind("HTTP/", 0) == 0) {
        r->headers.clear();
    } else if (const auto colon = line.find(':'); colon != std::string::npos) {
        std::string value = line.substr(colon + 1);
        const auto b = value.find_first_not_of(" \t");
        r->headers.push_back({line.substr(0, colon), b == std::string::npos ? "" : value.substr(b)});
    }
    return size * n;
}

} // namespace

CurlTransport::CurlTransport(CurlTimeouts timeouts, std::string ca_file)
    : timeouts_(timeouts), ca_file_(std::move(ca_file))
{
    static std::once_flag global_init;
    std::call_once(global_init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    handle_.reset(curl_easy_init());
    if (!handle_)
        throw std::runtime_error("curl_easy_init failed");
}

HttpResponse CurlTransport::perform(const HttpRequest& request)
{
    HttpResponse response;
    CURL* h = handle_.get();
    curl_easy_reset(h); // keeps the connection cache, forgets the previous request's options
    std::string url = request.origin + request.path;
    if (!request.query.empty())
        url += "?" + request.query;
    Slist headers;
    for (const auto& hd : request.headers) {
        const std::string line = hd.value.empty() ? hd.name + ";" : hd.name + ": " + hd.value;
        curl_slist* next = curl_slist_append(headers.get(), line.c_str());
        if (!next) {
            response.transport_error = "out of memory building headers";
            return response;
        }
        headers.release();
        headers.reset(next);
    }
    // libcurl adds "Expect: 100-continue" to large bodies; APIs gain nothing from it
    if (curl_slist* next = curl_slist_append(headers.get(), "Expect:")) {
        headers.release();
        headers.reset(next);
    }
    curl_easy_setopt(h, CURLOPT_URL, url.c_str());
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    if (request.method == "HEAD")
        curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
    if (!request.body.empty() || request.method == "POST" || request.method == "PUT" || request.method == "PATCH") {
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, request.body.data());
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    }
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, write_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &response);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, write_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, &response);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, timeouts_.connect_seconds);
    curl_easy_setopt(h, CURLOPT_TIMEOUT, timeouts_.total_seconds);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
    if (!ca_file_.empty())
        curl_easy_setopt(h, CURLOPT_CAINFO, ca_file_.c_str());
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    const CURLcode rc = curl_easy_perform(h);
    if (rc != CURLE_OK) {
        response = HttpResponse{};
        response.transport_error = std::string(curl_easy_strerror(rc)) + " (" + url.substr(0, url.find('?')) + ")";
        return response;
    }
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &response.status);
    return response;
}

} // namespace burst

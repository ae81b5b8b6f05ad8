#pragma once
// HttpTransport over libcurl's easy interface.  One handle per transport, so
// connections (and TLS sessions) are reused between calls; not thread-safe:
// one transport per worker.  TLS peers are always verified.

#include "provider/http/http_transport.hpp"

#include <curl/curl.h>

#include <memory>
#include <string>

namespace burst {

struct CurlTimeouts {
    long connect_seconds = 10;
    long total_seconds = 60;
};

class CurlTransport final : public HttpTransport {
public:
    // `ca_file`: PEM bundle to verify peers against instead of the system's
    // (a private CA in front of an API endpoint, or a test CA).
    explicit CurlTransport(CurlTimeouts timeouts = {}, std::string ca_file = {});
    HttpResponse perform(const HttpRequest& request) override;

private:
    struct EasyDeleter {
        void operator()(CURL* h) const { curl_easy_cleanup(h); }
    };
    std::unique_ptr<CURL, EasyDeleter> handle_;
    CurlTimeouts timeouts_;
    std::string ca_file_;
};

} // namespace burst

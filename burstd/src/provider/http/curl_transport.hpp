#pragma once
// HttpTransport over libcurl's multi interface: perform() hands the request
// to a CurlMulti driven by an io_context and blocks the calling thread (a
// provider worker) until the answer, a timeout or a TLS failure comes back.
// Transports sharing one CurlMulti share its connection cache, so calls to the
// same host reuse connections and TLS sessions.  Safe to call from several
// threads at once.  TLS peers are always verified.
//
// burstd passes its daemon's CurlMulti; tools and tests without an event loop
// of their own use the other constructor, which runs a private io_context on
// a thread of its own.

#include "provider/http/curl_multi.hpp"
#include "provider/http/http_transport.hpp"

#include <memory>
#include <string>

namespace burst {

class CurlTransport final : public HttpTransport {
public:
    // `ca_file`: PEM bundle to verify peers against instead of the system's
    // (a private CA in front of an API endpoint, or a test CA).
    CurlTransport(CurlMulti& multi, CurlTimeouts timeouts = {}, std::string ca_file = {});
    explicit CurlTransport(CurlTimeouts timeouts = {}, std::string ca_file = {});
    ~CurlTransport() override;

    // Must not be called on the thread running the CurlMulti's io_context.
    HttpResponse perform(const HttpRequest& request) override;

    // Connections opened by the CurlMulti behind this transport so far.
    long connections_opened() const { return multi_.connections_opened(); }

private:
    class OwnLoop;
    std::unique_ptr<OwnLoop> own_; // only for the loop-less constructor; before multi_
    CurlMulti& multi_;
    CurlRequestOptions options_;
};

} // namespace burst

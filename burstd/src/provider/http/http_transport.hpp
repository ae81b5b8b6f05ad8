#pragma once
// Sends one HTTP request and returns the response.  Providers talk to their
// APIs only through this interface, so tests replay recorded responses and the
// real implementation (libcurl) stays in one place.  A transport never throws
// for network failures: it returns a response with transport_error set.

#include "provider/http/http_message.hpp"

namespace burst {

class HttpTransport {
public:
    virtual ~HttpTransport() = default;
    virtual HttpResponse perform(const HttpRequest& request) = 0;
};

} // namespace burst

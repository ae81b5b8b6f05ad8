#pragma once
// What the provider factory hands every cloud provider besides its
// configuration: the daemon's HTTP event loop (one libcurl multi handle on the
// io_context, so all providers share its connection cache), the clock, and
// how a worker waits between polls of a long-running operation.

#include "model/clock.hpp"
#include "provider/http/curl_multi.hpp"

#include <functional>

namespace burst {

struct ProviderEnvironment {
    CurlMulti& http;
    const Clock& clock;
    std::function<void(Seconds)> sleep;
};

} // namespace burst

#pragma once
// What the provider factory hands every cloud provider besides its
// configuration: the daemon's HTTP event loop (one libcurl multi handle on the
// io_context, so all providers share its connection cache), the clock, how a
// worker waits (between polls of a long-running operation, for a request
// token, after a throttled request), and where each provider's request
// budget lives.

#include "model/clock.hpp"
#include "provider/http/curl_multi.hpp"
#include "provider/http/request_budget.hpp"

#include <functional>

namespace burst {

struct ProviderEnvironment {
    CurlMulti& http;
    const Clock& clock;
    std::function<void(Seconds)> sleep;
    RequestBudgets& budgets;
};

} // namespace burst

#pragma once
// A provider's API transport behind its request budget: every request waits
// for a token of its kind (read or write), and an answer the cloud's own
// classifier calls Throttled (EC2 RequestLimitExceeded, HTTP 429, GCE 403
// rateLimitExceeded, ...) is retried after a back-off: the Retry-After the
// cloud asked for, else exponential from kFirstBackoff, each with jitter so
// workers throttled together do not come back together.  The back-off also
// drains the shared bucket, so the provider's other calls hold off as well.
// After limits().throttle_retries retries, or when the cloud asks for more
// than limits().max_throttle_wait, the throttled answer goes back to the
// provider, which reports it as a Throttled error as before.
//
// Only throttled answers are retried: the cloud refused them without acting,
// so resending a launch cannot start a second instance.

#include "model/provider_error.hpp"
#include "provider/http/http_transport.hpp"
#include "provider/http/request_budget.hpp"

#include <functional>
#include <memory>

namespace burst {

struct ThrottleRules {
    // Which bucket a request spends: GET and HEAD read, other methods write.
    std::function<RequestKind(const HttpRequest&)> kind = request_kind_by_method;
    // The cloud's classifier: what the answer means (kind None for success).
    std::function<ProviderError(const HttpResponse&)> classify;

    static RequestKind request_kind_by_method(const HttpRequest& request);
};

class ThrottledTransport final : public HttpTransport {
public:
    static constexpr Seconds kFirstBackoff = 1;

    using Sleep = std::function<void(Seconds)>;
    using Uniform = std::function<double()>; // uniform in [0, 1)

    // `inner` must outlive this transport.  `jitter` defaults to a seeded
    // random generator; tests pass a fixed sequence.
    ThrottledTransport(HttpTransport& inner, std::shared_ptr<RequestBudget> budget, ThrottleRules rules, Sleep sleep,
                       Uniform jitter = {});

    HttpResponse perform(const HttpRequest& request) override;

    // The pause before retry `attempt` (0 for the first retry).
    Seconds backoff(int attempt, Seconds retry_after);

private:
    HttpTransport& inner_;
    std::shared_ptr<RequestBudget> budget_;
    ThrottleRules rules_;
    Sleep sleep_;
    Uniform jitter_;
};

} // namespace burst

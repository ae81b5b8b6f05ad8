#include "provider/http/throttled_transport.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <random>

namespace burst {

namespace {

double system_uniform()
{
    static std::mutex mutex;
    static std::mt19937_64 engine{std::random_device{}()};
    std::lock_guard<std::mutex> lock(mutex);
    return std::uniform_real_distribution<double>(0, 1)(engine);
}

} // namespace

RequestKind ThrottleRules::request_kind_by_method(const HttpRequest& request)
{
    return request.method == "GET" || request.method == "HEAD" ? RequestKind::Read : RequestKind::Write;
}

ThrottledTransport::ThrottledTransport(HttpTransport& inner, std::shared_ptr<RequestBudget> budget,
                                       ThrottleRules rules, Sleep sleep, Uniform jitter)
    : inner_(inner),
      budget_(std::move(budget)),
      rules_(std::move(rules)),
      sleep_(std::move(sleep)),
      jitter_(jitter ? std::move(jitter) : Uniform(system_uniform))
{
}

Seconds ThrottledTransport::backoff(int attempt, Seconds retry_after)
{
    const Seconds longest = budget_->limits().max_throttle_wait;
    // At least what the cloud asked for, up to a fifth more.
    if (retry_after > 0)
        return std::min(longest, retry_after * (1 + 0.2 * jitter_()));
    // Between half and all of an exponentially growing ceiling.
    const Seconds ceiling = std::min(longest, kFirstBackoff * std::ldexp(1.0, std::min(attempt, 30)));
    return ceiling * (0.5 + 0.5 * jitter_());
}

HttpResponse ThrottledTransport::perform(const HttpRequest& request)
{
    const RequestKind kind = rules_.kind(request);
    const RequestLimits& limits = budget_->limits();
    HttpRequest sent = request;
    bool backing_off = false;
    for (int attempt = 0;; ++attempt) {
        // After a throttle, the drained bucket makes this the back-off.
        const Seconds wait = budget_->reserve(kind);
        if (wait > 0) {
            sleep_(wait);
            budget_->waited(wait, backing_off);
            if (sent.sign_again)
                sent.sign_again(sent);
        }
        HttpResponse response = inner_.perform(sent);
        const ProviderError error = rules_.classify(response);
        if (error.kind != ProviderErrorKind::Throttled)
            return response;
        if (attempt >= limits.throttle_retries || error.retry_after > limits.max_throttle_wait) {
            budget_->throttled(kind, 0);
            budget_->gave_up();
            return response;
        }
        budget_->throttled(kind, backoff(attempt, error.retry_after));
        backing_off = true;
    }
}

} // namespace burst

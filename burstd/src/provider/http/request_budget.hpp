#pragma once
// One provider's request budget: a token bucket for reads and one for writes
// (the clouds throttle mutating calls harder), shared by every call the
// provider makes (launch, list, terminate, and the polls of long-running
// operations) from every worker thread, plus the counters burstd exports.
// ThrottledTransport spends it; RequestBudgets hands out one per provider.

#include "model/clock.hpp"
#include "provider/http/token_bucket.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace burst {

enum class RequestKind { Read, Write };

struct RequestLimits {
    BucketLimits read;
    BucketLimits write;
    int throttle_retries = 4;       // retries of one request the cloud throttled
    Seconds max_throttle_wait = 30; // longest single back-off; a longer Retry-After is not waited for
};

struct RequestBudgetView {
    std::string provider;
    std::string region;
    RequestLimits limits;
    std::uint64_t reads = 0;        // requests sent, retries included
    std::uint64_t writes = 0;
    std::uint64_t throttled = 0;    // throttling answers received
    std::uint64_t gave_up = 0;      // throttled requests handed back to the caller as Throttled
    Seconds bucket_wait = 0;        // time callers waited for a token
    Seconds backoff_wait = 0;       // time spent backing off after throttling
};

class RequestBudget {
public:
    RequestBudget(std::string provider, std::string region, const RequestLimits& limits, const Clock& clock);

    const RequestLimits& limits() const { return limits_; }

    // Takes a token and counts the request; returns how long to wait first.
    Seconds reserve(RequestKind kind);
    // The caller waited `seconds` for a token; `backing_off`: after its
    // request was throttled.
    void waited(Seconds seconds, bool backing_off);
    // The cloud throttled a request of `kind`: no request of that kind goes
    // before `pause` from now, the throttled one's retry included.
    void throttled(RequestKind kind, Seconds pause);
    void gave_up();

    RequestBudgetView view() const;

private:
    TokenBucket& bucket(RequestKind kind) { return kind == RequestKind::Read ? read_ : write_; }

    const RequestLimits limits_;
    const Clock& clock_;
    mutable std::mutex mutex_;
    TokenBucket read_;  // under mutex_
    TokenBucket write_; // under mutex_
    RequestBudgetView view_; // under mutex_
};

// The budgets of one burstd, by provider name.  Thread-safe.
class RequestBudgets {
public:
    // The provider's budget, made on the first call.  Later calls (a reload
    // checks the new file by building its providers, then keeps the running
    // ones) get the same budget, so the running provider's counters stay
    // the exported ones.
    std::shared_ptr<RequestBudget> get(const std::string& provider, const std::string& region,
                                       const RequestLimits& limits, const Clock& clock);
    std::vector<RequestBudgetView> views() const;

private:
    mutable std::mutex mutex_;
    std::map<std::string, std::shared_ptr<RequestBudget>> budgets_;
};

} // namespace burst

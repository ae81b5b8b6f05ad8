#pragma once
// A token bucket that lends: reserve() always takes a token and says how long
// the caller must wait before using it, so concurrent callers queue in order
// instead of polling, and a burst of N calls spreads out at the refill rate.
// Not thread-safe; RequestBudget guards it.  Time comes from the caller, so
// tests drive it with a ManualClock and never sleep.

#include "model/clock.hpp"

namespace burst {

struct BucketLimits {
    double rate = 0;  // tokens added per second, > 0
    double burst = 0; // capacity, >= 1: calls that may go at once after a quiet spell
};

class TokenBucket {
public:
    // Starts full: the cloud's own bucket is full after burstd's quiet start.
    TokenBucket(BucketLimits limits, Time now);

    // Takes one token; returns the seconds until it is available (0 = now).
    Seconds reserve(Time now);
    // The cloud throttled us: its bucket is emptier than ours thinks (other
    // clients share the account).  Nothing more goes until `pause` from now.
    void drain(Time now, Seconds pause);
    // Tokens available now; negative while callers wait for lent tokens.
    double tokens(Time now);

private:
    void refill(Time now);

    BucketLimits limits_;
    double tokens_;
    Time last_;
};

} // namespace burst

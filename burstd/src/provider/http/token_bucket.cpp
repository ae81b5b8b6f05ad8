#include "provider/http/token_bucket.hpp"

#include <algorithm>

namespace burst {

TokenBucket::TokenBucket(BucketLimits limits, Time now) : limits_(limits), tokens_(limits.burst), last_(now) {}

void TokenBucket::refill(Time now)
{
    // A clock stepping back must not take tokens away.
    if (now > last_) {
        tokens_ = std::min(limits_.burst, tokens_ + (now - last_) * limits_.rate);
        last_ = now;
    }
}

Seconds TokenBucket::reserve(Time now)
{
    refill(now);
    tokens_ -= 1;
    return tokens_ >= 0 ? 0 : -tokens_ / limits_.rate;
}

void TokenBucket::drain(Time now, Seconds pause)
{
    refill(now);
    tokens_ = std::min(tokens_, -pause * limits_.rate);
}

double TokenBucket::tokens(Time now)
{
    refill(now);
    return tokens_;
}

} // namespace burst

#pragma once
// Waits between attempts of a throttled or transiently failing provider call:
// exponential backoff with full jitter (AWS Architecture Blog, "Exponential
// Backoff And Jitter"): attempt k waits uniform(0, min(max_delay, base·2^k)),
// which spreads the retries of many workers instead of synchronising them.
// A provider's own hint (Retry-After, ProviderError::retry_after) is a floor:
// asking again earlier is certain to be refused again.

#include "app/instances/random_source.hpp"
#include "model/clock.hpp"
#include "provider/provider.hpp"

#include <cstdint>

namespace burst {

// Per provider: burstd.conf Provider= keys LaunchAttempts, RetryBaseDelay,
// RetryMaxDelay (burstd.conf(5)).
struct RetrySettings {
    std::uint32_t attempts = 4; // calls in all, the first included; 1 = never retry
    Seconds base_delay = 1;
    Seconds max_delay = 60;
};

// Throttled and transient errors are worth repeating the same call for;
// everything else needs another instance type, a cool-down or an operator.
bool retryable(ProviderErrorKind kind);

class RetryBackoff {
public:
    RetryBackoff(RetrySettings settings, RandomSource& random) : settings_(settings), random_(random) {}

    // Whether a call that failed `attempt` times in a row (1 = the first call
    // failed) with `error` may be made again.
    bool should_retry(const ProviderError& error, std::uint32_t attempt) const
    {
        return retryable(error.kind) && attempt < settings_.attempts;
    }
    // The wait before the next call after `attempt` failures.
    Seconds delay(std::uint32_t attempt, Seconds retry_after) const;

private:
    RetrySettings settings_;
    RandomSource& random_;
};

} // namespace burst

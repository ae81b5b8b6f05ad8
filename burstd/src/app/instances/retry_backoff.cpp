#include "app/instances/retry_backoff.hpp"

#include <algorithm>
#include <cmath>

namespace burst {

bool retryable(ProviderErrorKind kind)
{
    return kind == ProviderErrorKind::Throttled || kind == ProviderErrorKind::Transient;
}

Seconds RetryBackoff::delay(std::uint32_t attempt, Seconds retry_after) const
{
    // 2^k overflows nothing here: the exponent is capped long before a double's range.
    const double exponent = std::min<double>(attempt > 0 ? attempt - 1 : 0, 60);
    const Seconds ceiling = std::min(settings_.max_delay, settings_.base_delay * std::pow(2.0, exponent));
    const Seconds jittered = ceiling * random_.uniform();
    return std::max(jittered, retry_after > 0 ? retry_after : 0.0);
}

} // namespace burst

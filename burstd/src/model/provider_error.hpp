#pragma once
// How a provider call failed, classified the same way for every cloud: what
// providers return and what node groups back off on (GroupHealth).

#include "model/clock.hpp"

#include <string>
#include <string_view>

namespace burst {

enum class ProviderErrorKind {
    None,
    Capacity,  // no capacity for this type/zone now: try another, back off the group
    Quota,     // account limit reached: stop hiring in this group
    Throttled, // rate limited: retry after a delay
    Auth,      // credentials rejected: operator must act
    Transient, // 5xx, timeout, connection reset: retry
    Invalid,   // our request was wrong (bad template, unknown type): operator must act
};

std::string_view to_string(ProviderErrorKind kind);

struct ProviderError {
    ProviderErrorKind kind = ProviderErrorKind::None;
    std::string message;       // provider's code and text, never credentials
    Seconds retry_after = 0;   // from Retry-After or the provider's hint; 0 = unknown

    explicit operator bool() const { return kind != ProviderErrorKind::None; }
};

} // namespace burst

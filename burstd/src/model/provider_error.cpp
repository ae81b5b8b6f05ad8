#include "model/provider_error.hpp"

namespace burst {

std::string_view to_string(ProviderErrorKind kind)
{
    switch (kind) {
    case ProviderErrorKind::None: return "none";
    case ProviderErrorKind::Capacity: return "capacity";
    case ProviderErrorKind::Quota: return "quota";
    case ProviderErrorKind::Throttled: return "throttled";
    case ProviderErrorKind::Auth: return "auth";
    case ProviderErrorKind::Transient: return "transient";
    case ProviderErrorKind::Invalid: return "invalid";
    }
    return "unknown";
}

} // namespace burst

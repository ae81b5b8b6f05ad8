#include "provider/gcp/gce_error_classifier.hpp"

#include "common/json_ref.hpp"
#include "common/json_fields.hpp"

#include <cctype>
#include <cstdlib>

namespace burst {

namespace {

ProviderErrorKind operation_code_kind(const std::string& code)
{
    if (code == "ZONE_RESOURCE_POOL_EXHAUSTED" || code == "ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS")
        return ProviderErrorKind::Capacity;
    if (code == "QUOTA_EXCEEDED")
        return ProviderErrorKind::Quota;
    if (code == "RATE_LIMIT_EXCEEDED")
        return ProviderErrorKind::Throttled;
    return ProviderErrorKind::Invalid;
}

// Capacity or quota outrank the others: they say what the expander must do.
int rank(ProviderErrorKind kind)
{
    switch (kind) {
    case ProviderErrorKind::Capacity: return 4;
    case ProviderErrorKind::Quota: return 3;
    case ProviderErrorKind::Throttled: return 2;
    case ProviderErrorKind::Invalid: return 1;
    default: return 0;
    }
}

} // namespace

ProviderError classify_gce_operation_error(const json_t* error, const std::string& what)
{
    ProviderError e;
    const json_t* errors = json_object_get(error, "errors");
    if (!json_is_array(errors) || json_array_size(errors) == 0)
        return e;
    e.message = what + ":";
    for (std::size_t i = 0; i < json_array_size(errors); ++i) {
        const json_t* item = json_array_get(errors, i);
        const std::string code = string_field(item, "code");
        const ProviderErrorKind kind = operation_code_kind(code);
        if (rank(kind) > rank(e.kind))
            e.kind = kind;
        e.message += " " + (code.empty() ? std::string("(no code)") : code);
        const std::string message = string_field(item, "message");
        if (!message.empty())
            e.message += " (" + message + ")";
    }
    return e;
}

ProviderError classify_gce_response(const HttpResponse& r, const std::string& what)
{
    ProviderError e;
    if (r.status == 0) {
        e.kind = ProviderErrorKind::Transient;
        e.message = what + ": " + (r.transport_error.empty() ? "no response" : r.transport_error);
        return e;
    }
    if (r.status >= 200 && r.status < 300)
        return e;
    std::string reasons;
    std::string message;
    json_error_t jerr;
    JsonRef root(json_loads(r.body.c_str(), 0, &jerr));
    const json_t* error = root ? json_object_get(root.get(), "error") : nullptr;
    bool rate_limited = false;
    bool quota = false;
    if (json_is_object(error)) {
        message = string_field(error, "message");
        const json_t* errors = json_object_get(error, "errors");
        for (std::size_t i = 0; json_is_array(errors) && i < json_array_size(errors); ++i) {
            const std::string reason = string_field(json_array_get(errors, i), "reason");
            rate_limited = rate_limited || reason == "rateLimitExceeded" || reason == "userRateLimitExceeded";
            quota = quota || reason == "quotaExceeded" || reason == "QUOTA_EXCEEDED";
            reasons += (reasons.empty() ? "" : ",") + reason;
        }
    }
    e.message = what + ": HTTP " + std::to_string(r.status) + (reasons.empty() ? "" : " " + reasons) +
                (message.empty() ? "" : ": " + message);
    e.retry_after = retry_after_seconds(r);
    if (r.status == 429 || (r.status == 403 && rate_limited))
        e.kind = ProviderErrorKind::Throttled;
    else if (quota)
        e.kind = ProviderErrorKind::Quota;
    else if (r.status == 401 || r.status == 403)
        e.kind = ProviderErrorKind::Auth;
    else if (r.status >= 500)
        e.kind = ProviderErrorKind::Transient;
    else
        e.kind = ProviderErrorKind::Invalid;
    return e;
}

ThrottleRules gce_throttle_rules()
{
    ThrottleRules r;
    r.classify = [](const HttpResponse& response) { return classify_gce_response(response, "compute"); };
    return r;
}

} // namespace burst

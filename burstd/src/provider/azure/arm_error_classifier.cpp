#include "provider/azure/arm_error_classifier.hpp"

#include "common/json_ref.hpp"
#include "common/json_fields.hpp"

#include <cctype>
#include <cstdlib>

namespace burst {

namespace {

ProviderErrorKind code_kind(const std::string& code)
{
    if (code == "OperationNotAllowed" || code == "QuotaExceeded")
        return ProviderErrorKind::Quota;
    if (code == "AllocationFailed" || code == "ZonalAllocationFailed" || code == "OverconstrainedAllocationRequest" ||
        code == "OverconstrainedZonalAllocationRequest" || code == "SkuNotAvailable")
        return ProviderErrorKind::Capacity;
    if (code == "AuthorizationFailed" || code.rfind("InvalidAuthenticationToken", 0) == 0 ||
        code == "ExpiredAuthenticationToken" || code == "AuthenticationFailed")
        return ProviderErrorKind::Auth;
    return ProviderErrorKind::None;
}

// The most specific classified code: the top-level one, else the first
// detail that has a known meaning.  `codes` collects all of them for the message.
ProviderErrorKind error_kind(const json_t* error, std::string& codes, std::string& message)
{
    const std::string code = string_field(error, "code");
    message = string_field(error, "message");
    codes = code;
    ProviderErrorKind kind = code_kind(code);
    const json_t* details = json_object_get(error, "details");
    for (std::size_t i = 0; json_is_array(details) && i < json_array_size(details); ++i) {
        const std::string detail = string_field(json_array_get(details, i), "code");
        if (detail.empty())
            continue;
        codes += (codes.empty() ? "" : "/") + detail;
        if (kind == ProviderErrorKind::None)
            kind = code_kind(detail);
    }
    return kind;
}

} // namespace

ProviderError classify_arm_operation_error(const json_t* error, const std::string& status, const std::string& what)
{
    std::string codes;
    std::string message;
    ProviderError e;
    e.kind = error_kind(error, codes, message);
    if (e.kind == ProviderErrorKind::None)
        e.kind = ProviderErrorKind::Transient;
    e.message = what + ": " + status + (codes.empty() ? "" : " " + codes) + (message.empty() ? "" : ": " + message);
    return e;
}

ProviderError classify_arm_response(const HttpResponse& r, const std::string& what)
{
    ProviderError e;
    if (r.status == 0) {
        e.kind = ProviderErrorKind::Transient;
        e.message = what + ": " + (r.transport_error.empty() ? "no response" : r.transport_error);
        return e;
    }
    if (r.status >= 200 && r.status < 300)
        return e;
    std::string codes;
    std::string message;
    json_error_t jerr;
    JsonRef root(json_loads(r.body.c_str(), 0, &jerr));
    const json_t* error = root ? json_object_get(root.get(), "error") : nullptr;
    const ProviderErrorKind by_code = json_is_object(error) ? error_kind(error, codes, message) : ProviderErrorKind::None;
    e.message = what + ": HTTP " + std::to_string(r.status) + (codes.empty() ? "" : " " + codes) +
                (message.empty() ? "" : ": " + message);
    e.retry_after = retry_after_seconds(r);
    if (r.status == 429)
        e.kind = ProviderErrorKind::Throttled;
    else if (by_code != ProviderErrorKind::None)
        e.kind = by_code;
    else if (r.status == 401 || r.status == 403)
        e.kind = ProviderErrorKind::Auth;
    else if (r.status >= 500)
        e.kind = ProviderErrorKind::Transient;
    else
        e.kind = ProviderErrorKind::Invalid;
    return e;
}

ThrottleRules arm_throttle_rules()
{
    ThrottleRules r;
    r.classify = [](const HttpResponse& response) { return classify_arm_response(response, "ARM"); };
    return r;
}

} // namespace burst

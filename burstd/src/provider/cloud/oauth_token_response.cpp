#include "provider/cloud/oauth_token_response.hpp"

#include "common/json_ref.hpp"
#include "common/json_fields.hpp"

#include <cstdlib>

namespace burst {

OAuthToken parse_oauth_token_response(const HttpResponse& r, const std::string& what, ProviderError& error)
{
    error = {};
    if (r.status == 0) {
        error = {ProviderErrorKind::Transient, what + ": " + (r.transport_error.empty() ? "no response" : r.transport_error), 0};
        return {};
    }
    json_error_t jerr;
    JsonRef root(json_loads(r.body.c_str(), 0, &jerr));
    if (r.status < 200 || r.status >= 300) {
        std::string detail;
        if (root && json_is_object(root.get())) {
            detail = string_field(root.get(), "error");
            const std::string description = string_field(root.get(), "error_description");
            if (!description.empty())
                detail += (detail.empty() ? "" : ": ") + description;
        }
        error.message = what + ": HTTP " + std::to_string(r.status) + (detail.empty() ? "" : ": " + detail);
        if (r.status == 429) {
            error.kind = ProviderErrorKind::Throttled;
            error.retry_after = std::atof(r.header("Retry-After").c_str());
        } else if (r.status >= 500) {
            error.kind = ProviderErrorKind::Transient;
        } else {
            error.kind = ProviderErrorKind::Auth;
        }
        return {};
    }
    OAuthToken t;
    if (root && json_is_object(root.get())) {
        t.access_token = string_field(root.get(), "access_token");
        json_t* expires = json_object_get(root.get(), "expires_in");
        if (json_is_number(expires))
            t.expires_in = json_number_value(expires);
        else if (json_is_string(expires))
            t.expires_in = std::atof(json_string_value(expires));
    }
    if (t.access_token.empty() || t.expires_in <= 0) {
        error = {ProviderErrorKind::Transient, what + ": answer lacks access_token or a positive expires_in", 0};
        return {};
    }
    return t;
}

} // namespace burst

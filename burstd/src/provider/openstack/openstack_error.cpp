#include "provider/openstack/openstack_error.hpp"

#include "common/json_ref.hpp"

#include <cctype>
#include <cstdlib>

namespace burst {

namespace {

bool contains(std::string_view haystack, std::string_view needle)
{
    return haystack.find(needle) != std::string_view::npos;
}

} // namespace

std::string openstack_error_message(const std::string& body)
{
    json_error_t err;
    JsonRef root(json_loads(body.c_str(), 0, &err));
    if (root && json_is_object(root.get())) {
        const char* key;
        json_t* value;
        json_object_foreach(root.get(), key, value)
        {
            json_t* msg = json_object_get(value, "message");
            if (json_is_string(msg))
                return json_string_value(msg);
        }
    }
    std::string printable;
    for (char ch : body.substr(0, 200))
        printable += std::isprint(static_cast<unsigned char>(ch)) ? ch : ' ';
    return printable;
}

bool is_no_valid_host(std::string_view fault_message)
{
    return contains(fault_message, "No valid host");
}

ProviderError classify_openstack_response(const HttpResponse& r, std::string_view what)
{
    ProviderError e;
    if (r.status == 0) {
        e.kind = ProviderErrorKind::Transient;
        e.message = std::string(what) + ": " + (r.transport_error.empty() ? "no response" : r.transport_error);
        return e;
    }
    if (r.status >= 200 && r.status < 300)
        return e;
    const std::string msg = openstack_error_message(r.body);
    e.message = std::string(what) + ": HTTP " + std::to_string(r.status) + (msg.empty() ? "" : ": " + msg);
    e.retry_after = retry_after_seconds(r);
    const bool quota = contains(msg, "Quota exceeded") || contains(msg, "quota exceeded");
    if ((r.status == 403 || r.status == 413) && quota)
        e.kind = ProviderErrorKind::Quota;
    else if (r.status == 429 || r.status == 413 || (r.status == 503 && e.retry_after > 0))
        e.kind = ProviderErrorKind::Throttled;
    else if (r.status == 401 || r.status == 403)
        e.kind = ProviderErrorKind::Auth;
    else if (r.status == 409)
        e.kind = (contains(msg, "task_state") || contains(msg, "vm_state") || contains(msg, "while it is in"))
                     ? ProviderErrorKind::Transient
                     : ProviderErrorKind::Invalid;
    else if (r.status >= 500)
        e.kind = ProviderErrorKind::Transient;
    else
        e.kind = ProviderErrorKind::Invalid;
    return e;
}

ThrottleRules nova_throttle_rules()
{
    ThrottleRules r;
    r.classify = [](const HttpResponse& response) { return classify_openstack_response(response, "OpenStack"); };
    return r;
}

} // namespace burst

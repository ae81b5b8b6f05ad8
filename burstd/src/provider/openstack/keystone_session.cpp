#include "provider/openstack/keystone_session.hpp"

#include "common/json_ref.hpp"
#include "provider/openstack/openstack_error.hpp"
#include "common/json_fields.hpp"

#include <cstdio>
#include <ctime>

namespace burst {

namespace {

// Renew this long before Keystone's expiry, so a token never dies in flight.
constexpr Seconds kRenewMargin = 120;

// {"id": id} when the id is known, else {"name": name}: Keystone takes either.
json_t* name_or_id(const std::string& name, const std::string& id)
{
    return id.empty() ? json_pack("{s:s}", "name", name.c_str()) : json_pack("{s:s}", "id", id.c_str());
}

} // namespace

Time parse_keystone_time(const std::string& text)
{
    std::tm tm{};
    int consumed = 0;
    if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                    &tm.tm_min, &tm.tm_sec, &consumed) != 6 || consumed != 19)
        return -1;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    return static_cast<Time>(timegm(&tm));
}

KeystoneSession::KeystoneSession(HttpTransport& transport, OpenStackCredentials credentials, const Clock& clock,
                                 std::string region, std::string interface)
    : transport_(transport), credentials_(std::move(credentials)), clock_(clock), region_(std::move(region)),
      interface_(std::move(interface))
{
}

HttpRequest KeystoneSession::auth_request() const
{
    const auto& c = credentials_;
    JsonRef identity;
    if (c.auth_type == OpenStackAuthType::ApplicationCredential) {
        identity.reset(json_pack("{s:[s], s:{s:s, s:s}}", "methods", "application_credential",
                                 "application_credential", "id", c.application_credential_id.c_str(), "secret",
                                 c.application_credential_secret.c_str()));
    } else {
        json_t* domain = name_or_id(c.user_domain_name, c.user_domain_id);
        identity.reset(json_pack("{s:[s], s:{s:{s:s, s:o, s:s}}}", "methods", "password", "password", "user", "name",
                                 c.username.c_str(), "domain", domain, "password", c.password.c_str()));
    }
    JsonRef auth(json_pack("{s:O}", "identity", identity.get()));
    if (c.auth_type == OpenStackAuthType::Password) {
        json_t* project;
        if (!c.project_id.empty()) {
            project = json_pack("{s:s}", "id", c.project_id.c_str());
        } else {
            project = json_pack("{s:s, s:o}", "name", c.project_name.c_str(), "domain",
                                name_or_id(c.project_domain_name, c.project_domain_id));
        }
        json_object_set_new(auth.get(), "scope", json_pack("{s:o}", "project", project));
    }
    JsonRef body(json_pack("{s:O}", "auth", auth.get()));
    char* text = json_dumps(body.get(), JSON_COMPACT);
    HttpRequest req;
    const auto url = split_service_url(c.auth_url);
    if (url) {
        req.origin = url->origin;
        req.path = url->path + "/auth/tokens";
    }
    req.method = "POST";
    req.headers = {{"Content-Type", "application/json"}, {"Accept", "application/json"}};
    req.body = text ? text : "";
    std::free(text);
    return req;
}

std::string KeystoneSession::token(ProviderError& error)
{
    if (!token_.empty() && clock_.now() < expires_at_ - kRenewMargin)
        return token_;
    token_.clear();
    const HttpRequest req = auth_request();
    if (req.origin.empty()) {
        error = {ProviderErrorKind::Invalid, "keystone AuthUrl '" + credentials_.auth_url + "' is not a URL", 0};
        return "";
    }
    error = accept(transport_.perform(req));
    return error ? "" : token_;
}

ProviderError KeystoneSession::accept(const HttpResponse& r)
{
    const std::string who = "keystone authentication of " + credentials_.describe();
    if (r.status != 201) {
        ProviderError e = classify_openstack_response(r, who);
        if (!e) // a 2xx other than 201 is not what v3 answers
            e = {ProviderErrorKind::Invalid, who + ": unexpected HTTP " + std::to_string(r.status), 0};
        return e;
    }
    const std::string token = r.header("X-Subject-Token");
    json_error_t jerr;
    JsonRef root(json_loads(r.body.c_str(), 0, &jerr));
    json_t* tok = root ? json_object_get(root.get(), "token") : nullptr;
    if (token.empty() || !json_is_object(tok))
        return {ProviderErrorKind::Transient, who + ": answer without X-Subject-Token or token object", 0};
    const Time expires = parse_keystone_time(string_field(tok, "expires_at"));
    if (expires < 0)
        return {ProviderErrorKind::Transient, who + ": token.expires_at missing or malformed", 0};

    json_t* catalog = json_object_get(tok, "catalog");
    std::string seen;
    size_t i;
    json_t* service;
    json_array_foreach(catalog, i, service)
    {
        if (string_field(service, "type") != "compute")
            continue;
        size_t j;
        json_t* ep;
        json_array_foreach(json_object_get(service, "endpoints"), j, ep)
        {
            const std::string region = string_field(ep, "region_id").empty() ? string_field(ep, "region") : string_field(ep, "region_id");
            seen += (seen.empty() ? "" : ", ") + string_field(ep, "interface") + "@" + region;
            if (string_field(ep, "interface") != interface_ || (!region_.empty() && region != region_))
                continue;
            const auto url = split_service_url(string_field(ep, "url"));
            if (!url)
                return {ProviderErrorKind::Invalid, who + ": compute endpoint URL '" + string_field(ep, "url") + "' is not a URL",
                        0};
            compute_ = *url;
            token_ = token;
            expires_at_ = expires;
            return {};
        }
    }
    return {ProviderErrorKind::Invalid,
            who + ": the catalog has no compute endpoint for interface '" + interface_ + "'" +
                (region_.empty() ? "" : " in region '" + region_ + "'") + " (it has: " +
                (seen.empty() ? "none" : seen) + ")",
            0};
}

} // namespace burst

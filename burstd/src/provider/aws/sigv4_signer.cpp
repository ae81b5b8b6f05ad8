#include "provider/aws/sigv4_signer.hpp"

#include "provider/cloud/sha256.hpp"
#include "provider/cloud/uri_encoding.hpp"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

namespace burst {

namespace {

const char algorithm[] = "AWS4-HMAC-SHA256";

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Trims the value and collapses every run of whitespace, including the line
// breaks of a folded value, to one space.
std::string canonical_header_value(std::string_view v)
{
    std::string out;
    bool pending_space = false;
    for (char c : v) {
        if (is_space(c)) {
            pending_space = !out.empty();
            continue;
        }
        if (pending_space)
            out += ' ';
        pending_space = false;
        out += c;
    }
    return out;
}

struct CanonicalHeaders {
    std::string block;  // "name:value\n" lines
    std::string signed_names;
};

CanonicalHeaders canonical_headers(const std::vector<HttpHeader>& headers)
{
    std::map<std::string, std::string> merged; // sorted by lower-case name
    for (const auto& h : headers) {
        std::string value = canonical_header_value(h.value);
        auto [it, inserted] = merged.emplace(lower(h.name), value);
        if (!inserted)
            it->second += "," + value;
    }
    CanonicalHeaders out;
    for (const auto& [name, value] : merged) {
        out.block += name + ":" + value + "\n";
        if (!out.signed_names.empty())
            out.signed_names += ';';
        out.signed_names += name;
    }
    return out;
}

void remove_headers(std::vector<HttpHeader>& headers, std::initializer_list<std::string_view> names)
{
    headers.erase(std::remove_if(headers.begin(), headers.end(),
                                 [&](const HttpHeader& h) {
                                     return std::any_of(names.begin(), names.end(), [&](std::string_view n) {
                                         return header_name_equals(h.name, n);
                                     });
                                 }),
                  headers.end());
}

std::string signing_key(const std::string& secret, const std::string& date, const SigV4Options& o)
{
    std::string k = hmac_sha256("AWS4" + secret, date);
    k = hmac_sha256(k, o.region);
    k = hmac_sha256(k, o.service);
    return hmac_sha256(k, "aws4_request");
}

std::string join_canonical(const HttpRequest& r, const std::string& path, const std::string& query,
                           const CanonicalHeaders& headers, const std::string& payload_hash)
{
    return r.method + "\n" + path + "\n" + query + "\n" + headers.block + "\n" + headers.signed_names + "\n" +
           payload_hash;
}

void require_host(const HttpRequest& r)
{
    if (r.header("Host").empty())
        throw std::invalid_argument("SigV4: request has no Host header");
}

} // namespace

std::string amz_date(Time t)
{
    std::time_t secs = static_cast<std::time_t>(t);
    std::tm tm{};
    if (!gmtime_r(&secs, &tm))
        throw std::invalid_argument("SigV4: time out of range");
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
    return buf;
}

SigV4Signer::SigV4Signer(SigV4Options options) : options_(std::move(options))
{
    if (options_.region.empty() || options_.service.empty())
        throw std::invalid_argument("SigV4: region and service are required");
}

std::string SigV4Signer::canonical_path(const std::string& wire_path) const
{
    std::string path = wire_path.empty() ? "/" : wire_path;
    if (options_.normalize_path) {
        std::vector<std::string> segments;
        size_t start = 0;
        bool trailing_slash = false;
        while (start <= path.size()) {
            size_t end = path.find('/', start);
            if (end == std::string::npos)
                end = path.size();
            std::string seg = path.substr(start, end - start);
            bool last = end == path.size();
            if (seg == "..") {
                if (!segments.empty())
                    segments.pop_back();
            } else if (!seg.empty() && seg != ".") {
                segments.push_back(seg);
            }
            if (last)
                trailing_slash = seg.empty() || seg == "." || seg == "..";
            start = end + 1;
        }
        path = "/";
        for (size_t i = 0; i < segments.size(); ++i) {
            path += segments[i];
            if (i + 1 < segments.size() || trailing_slash)
                path += '/';
        }
    }
    return uri_encode(path, true);
}

std::string SigV4Signer::canonical_query(const std::string& wire_query)
{
    std::vector<std::pair<std::string, std::string>> params;
    size_t start = 0;
    while (start < wire_query.size()) {
        size_t end = wire_query.find('&', start);
        if (end == std::string::npos)
            end = wire_query.size();
        std::string_view item(wire_query.data() + start, end - start);
        if (!item.empty()) {
            size_t eq = item.find('=');
            std::string_view key = item.substr(0, eq);
            std::string_view value = eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1);
            params.emplace_back(uri_encode(uri_decode(key)), uri_encode(uri_decode(value)));
        }
        start = end + 1;
    }
    std::sort(params.begin(), params.end());
    std::string out;
    for (const auto& [k, v] : params) {
        if (!out.empty())
            out += '&';
        out += k + "=" + v;
    }
    return out;
}

SigV4Trace SigV4Signer::sign(HttpRequest& request, const AwsCredentials& credentials, Time now) const
{
    require_host(request);
    remove_headers(request.headers,
                   {"Authorization", "X-Amz-Date", "X-Amz-Security-Token", "x-amz-content-sha256"});
    const std::string when = amz_date(now);
    const std::string date = when.substr(0, 8);
    const std::string scope = date + "/" + options_.region + "/" + options_.service + "/aws4_request";
    const std::string payload_hash = hex_lower(sha256(request.body));

    const bool sign_token = !credentials.session_token.empty() && !options_.omit_session_token;
    if (!credentials.session_token.empty())
        request.headers.push_back({"X-Amz-Security-Token", credentials.session_token});
    request.headers.push_back({"X-Amz-Date", when});
    if (options_.sign_body)
        request.headers.push_back({"x-amz-content-sha256", payload_hash});

    std::vector<HttpHeader> signed_headers;
    for (const auto& h : request.headers) {
        if (sign_token || !header_name_equals(h.name, "X-Amz-Security-Token"))
            signed_headers.push_back(h);
    }
    CanonicalHeaders headers = canonical_headers(signed_headers);

    SigV4Trace trace;
    trace.canonical_request = join_canonical(request, canonical_path(request.path),
                                             canonical_query(request.query), headers, payload_hash);
    trace.string_to_sign = std::string(algorithm) + "\n" + when + "\n" + scope + "\n" +
                           hex_lower(sha256(trace.canonical_request));
    trace.signature =
        hex_lower(hmac_sha256(signing_key(credentials.secret_access_key, date, options_), trace.string_to_sign));
    request.headers.push_back({"Authorization", std::string(algorithm) + " Credential=" +
                                                    credentials.access_key_id + "/" + scope +
                                                    ", SignedHeaders=" + headers.signed_names +
                                                    ", Signature=" + trace.signature});
    return trace;
}

SigV4Trace SigV4Signer::presign(HttpRequest& request, const AwsCredentials& credentials, Time now,
                                Seconds expires) const
{
    require_host(request);
    if (expires < 1 || expires > 604800)
        throw std::invalid_argument("SigV4: presigned expiry must be 1..604800 seconds");
    const std::string when = amz_date(now);
    const std::string date = when.substr(0, 8);
    const std::string scope = date + "/" + options_.region + "/" + options_.service + "/aws4_request";
    CanonicalHeaders headers = canonical_headers(request.headers);

    // In the order the query string carries them; the canonical form sorts anyway.
    std::vector<std::pair<std::string, std::string>> auth = {
        {"X-Amz-Algorithm", algorithm},
        {"X-Amz-Credential", credentials.access_key_id + "/" + scope},
        {"X-Amz-Date", when},
        {"X-Amz-SignedHeaders", headers.signed_names},
        {"X-Amz-Expires", std::to_string(static_cast<long long>(expires))},
    };
    if (!credentials.session_token.empty())
        auth.emplace_back("X-Amz-Security-Token", credentials.session_token);

    std::string signed_query = request.query;
    std::string full_query = request.query;
    for (const auto& [k, v] : auth) {
        std::string item = k + "=" + uri_encode(v);
        if (k != "X-Amz-Security-Token" || !options_.omit_session_token)
            signed_query += (signed_query.empty() ? "" : "&") + item;
        full_query += (full_query.empty() ? "" : "&") + item;
    }

    SigV4Trace trace;
    trace.canonical_request = join_canonical(request, canonical_path(request.path), canonical_query(signed_query),
                                             headers, hex_lower(sha256(request.body)));
    trace.string_to_sign = std::string(algorithm) + "\n" + when + "\n" + scope + "\n" +
                           hex_lower(sha256(trace.canonical_request));
    trace.signature =
        hex_lower(hmac_sha256(signing_key(credentials.secret_access_key, date, options_), trace.string_to_sign));
    request.query = full_query + "&X-Amz-Signature=" + trace.signature;
    return trace;
}

} // namespace burst

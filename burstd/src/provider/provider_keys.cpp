#include "provider/provider_keys.hpp"

#include "common/config_values.hpp"
#include "common/text.hpp"

#include <unistd.h>

namespace burst {
namespace {

const std::vector<std::string> kTransportKeys = {
    "CaFile",           "ConnectTimeout",    "RequestTimeout",  "ReadRequestRate", "ReadRequestBurst",
    "WriteRequestRate", "WriteRequestBurst", "ThrottleRetries", "ThrottleMaxWait"};

// More retries than this only hides a budget set above the account's limit.
constexpr std::uint64_t kMostThrottleRetries = 20;

bool is_transport_key(const std::string& key)
{
    for (const auto& k : kTransportKeys)
        if (iequals(k, key))
            return true;
    return false;
}

} // namespace

std::vector<std::string> with_transport_keys(std::vector<std::string> keys)
{
    for (const auto& k : kTransportKeys) {
        bool have = false;
        for (const auto& known : keys)
            have = have || iequals(known, k);
        if (!have)
            keys.push_back(k);
    }
    return keys;
}

ProviderKeys::ProviderKeys(const ProviderSpec& spec, std::vector<std::string> known)
    : spec_(spec), known_(std::move(known))
{
    for (const auto& [key, value] : spec.params) {
        bool found = false;
        for (const auto& k : known_)
            found = found || iequals(k, key);
        if (!found) {
            std::string hint = closest_match(key, known_);
            fail("unknown key " + key + "= for Type=" + spec.type +
                 (hint.empty() ? "" : " (did you mean " + hint + "?)") + "; known keys: " + joined(known_));
        }
    }
}

const std::string* ProviderKeys::get(const std::string& key) const
{
    auto it = spec_.params.find(key);
    return it == spec_.params.end() ? nullptr : &it->second;
}

Seconds ProviderKeys::duration(const std::string& key, Seconds fallback) const
{
    const std::string* v = get(key);
    if (!v)
        return fallback;
    auto d = parse_duration(*v);
    if (!d)
        fail(key + "=" + *v + ": expected a duration (e.g. 5, 5s, 2m)");
    return *d;
}

ProviderParams ProviderKeys::cloud_params() const
{
    ProviderParams out;
    for (const auto& [key, value] : spec_.params)
        if (!is_transport_key(key))
            out.emplace_back(key, value);
    return out;
}

CurlRequestOptions ProviderKeys::transport_options() const
{
    CurlRequestOptions o;
    if (const auto* v = get("CaFile")) {
        if (v->empty() || v->front() != '/')
            fail("CaFile=" + *v + ": expected an absolute path to a PEM CA bundle");
        if (::access(v->c_str(), R_OK) != 0)
            fail("CaFile=" + *v + ": cannot be read");
        o.ca_file = *v;
    }
    o.timeouts.connect_seconds = whole_seconds("ConnectTimeout", o.timeouts.connect_seconds);
    o.timeouts.total_seconds = whole_seconds("RequestTimeout", o.timeouts.total_seconds);
    return o;
}

RequestLimits ProviderKeys::request_limits(RequestLimits defaults) const
{
    RequestLimits l = defaults;
    l.read.rate = positive_number("ReadRequestRate", l.read.rate, 0);
    l.read.burst = positive_number("ReadRequestBurst", l.read.burst, 1);
    l.write.rate = positive_number("WriteRequestRate", l.write.rate, 0);
    l.write.burst = positive_number("WriteRequestBurst", l.write.burst, 1);
    if (const auto* v = get("ThrottleRetries")) {
        auto n = parse_unsigned(*v, kMostThrottleRetries);
        if (!n)
            fail("ThrottleRetries=" + *v + ": expected a whole number from 0 to " +
                 std::to_string(kMostThrottleRetries));
        l.throttle_retries = static_cast<int>(*n);
    }
    l.max_throttle_wait = duration("ThrottleMaxWait", l.max_throttle_wait);
    if (l.max_throttle_wait <= 0)
        fail("ThrottleMaxWait=" + *get("ThrottleMaxWait") + ": expected a duration above 0");
    return l;
}

void ProviderKeys::forbid_region() const
{
    if (spec_.region.empty())
        return;
    const std::string instead = spec_.type == "gcp"     ? "the zones are Zone= or Zones="
                                : spec_.type == "azure" ? "the region is Location="
                                                        : "";
    fail("Type=" + spec_.type + " takes no Region= (" + instead + ")");
}

void ProviderKeys::require_credentials_file() const
{
    if (spec_.credentials_file.empty())
        fail("CredentialsFile= is required for Type=" + spec_.type);
}

void ProviderKeys::fail(const std::string& what) const
{
    throw ProviderConfigError(spec_.origin + ": Provider=" + spec_.name + ": " + what);
}

// A rate (`least` 0: above it) or a burst (`least` 1: at least it).
double ProviderKeys::positive_number(const std::string& key, double fallback, double least) const
{
    const std::string* v = get(key);
    if (!v)
        return fallback;
    auto n = parse_non_negative_number(*v);
    if (!n || (least == 0 ? *n <= 0 : *n < least))
        fail(key + "=" + *v + (least == 0 ? ": expected a number of requests per second above 0"
                                          : ": expected a number of requests, at least 1"));
    return *n;
}

long ProviderKeys::whole_seconds(const std::string& key, long fallback) const
{
    const Seconds s = duration(key, static_cast<Seconds>(fallback));
    if (s < 1 || s != static_cast<long>(s))
        fail(key + "=" + *get(key) + ": expected a whole number of seconds, at least 1");
    return static_cast<long>(s);
}

} // namespace burst

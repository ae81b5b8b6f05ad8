#pragma once
// A Provider= section's keys as one type's builder reads them: every key the
// section has must be one the type knows, and every bad value is an error
// naming the key and the section's file:line.

#include "model/clock.hpp"
#include "provider/http/curl_multi.hpp"
#include "provider/http/request_budget.hpp"
#include "provider/cloud/provider_params.hpp"
#include "provider/provider_spec.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace burst {

class ProviderConfigError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// `keys` plus the keys of every cloud type's HTTPS connections (CaFile=,
// ConnectTimeout=, RequestTimeout=) and request budget (ReadRequestRate=,
// ReadRequestBurst=, WriteRequestRate=, WriteRequestBurst=,
// ThrottleRetries=, ThrottleMaxWait=).
std::vector<std::string> with_transport_keys(std::vector<std::string> keys);

class ProviderKeys {
public:
    // Throws ProviderConfigError for a key of `spec` that is not in `known`.
    ProviderKeys(const ProviderSpec& spec, std::vector<std::string> known);

    const std::string* get(const std::string& key) const;
    Seconds duration(const std::string& key, Seconds fallback) const;
    // The type's own keys, without the transport keys.
    ProviderParams cloud_params() const;
    // CaFile=, ConnectTimeout=, RequestTimeout=.
    CurlRequestOptions transport_options() const;
    // The request budget keys over the type's documented `defaults`.
    RequestLimits request_limits(RequestLimits defaults) const;
    const ProviderSpec& spec() const { return spec_; }
    void forbid_region() const;
    void require_credentials_file() const;
    [[noreturn]] void fail(const std::string& what) const;

private:
    long whole_seconds(const std::string& key, long fallback) const;
    double positive_number(const std::string& key, double fallback, double least) const;

    const ProviderSpec& spec_;
    std::vector<std::string> known_;
};

} // namespace burst

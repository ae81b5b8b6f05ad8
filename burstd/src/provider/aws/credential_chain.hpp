#pragma once
// Tries credential sources in order (environment, shared files, instance
// metadata) and caches the first keys found until five minutes before they
// expire, as the AWS SDKs do.

#include "model/clock.hpp"
#include "provider/aws/credential_source.hpp"
#include "provider/aws/environment_lookup.hpp"
#include "provider/http/http_transport.hpp"

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace burst {

class CredentialChain {
public:
    CredentialChain(std::vector<std::unique_ptr<CredentialSource>> sources, const Clock& clock);

    // Throws CredentialError if a source is broken or no source has keys.
    // Safe to call from several provider workers at once.
    AwsCredentials get();

private:
    std::vector<std::unique_ptr<CredentialSource>> sources_;
    const Clock& clock_;
    std::mutex mutex_; // one refresh at a time; guards cached_
    std::optional<AwsCredentials> cached_;
};

// The standard order: environment, shared files, IMDSv2 through `imds`.
std::vector<std::unique_ptr<CredentialSource>> default_credential_sources(const EnvironmentLookup& env,
                                                                          HttpTransport& imds);
CredentialChain default_credential_chain(const EnvironmentLookup& env, HttpTransport& imds, const Clock& clock);

} // namespace burst

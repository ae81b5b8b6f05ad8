#pragma once
// One place AWS credentials can come from (environment, shared files,
// instance metadata).  A source that is simply not configured returns
// nothing, so the chain moves on; a source that is configured but broken
// (half-set variables, a world-readable credentials file, a malformed IMDS
// answer) throws CredentialError, because silently falling through to another
// identity would launch instances under the wrong account.

#include "provider/aws/aws_credentials.hpp"

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace burst {

class CredentialError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class CredentialSource {
public:
    virtual ~CredentialSource() = default;
    virtual std::string_view name() const = 0;
    virtual std::optional<AwsCredentials> load() = 0;
};

} // namespace burst

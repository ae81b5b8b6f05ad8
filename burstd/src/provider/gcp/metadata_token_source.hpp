#pragma once
// OAuth access tokens from the GCE metadata server, for a burstd that runs on
// a Compute Engine VM with an attached service account: no key file at all.

#include "model/clock.hpp"
#include "provider/cloud/bearer_token_source.hpp"
#include "provider/http/http_transport.hpp"

namespace burst {

class MetadataTokenSource final : public BearerTokenSource {
public:
    static constexpr const char* kDefaultOrigin = "http://metadata.google.internal";

    // `origin`: the metadata server (tests: a loopback one).
    MetadataTokenSource(HttpTransport& transport, const Clock& clock, std::string origin = kDefaultOrigin);

    std::string token(ProviderError& error) override;
    void invalidate() override { token_.clear(); }

private:
    HttpTransport& transport_;
    const Clock& clock_;
    std::string origin_;
    std::string token_;
    Time expires_at_ = 0;
};

} // namespace burst

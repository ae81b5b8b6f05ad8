#include "provider/aws/credential_chain.hpp"

#include "provider/aws/environment_credentials.hpp"
#include "provider/aws/imds_credentials.hpp"
#include "provider/aws/shared_file_credentials.hpp"

#include <utility>

namespace burst {

namespace {
const Seconds refresh_margin = 300;
}

CredentialChain::CredentialChain(std::vector<std::unique_ptr<CredentialSource>> sources, const Clock& clock)
    : sources_(std::move(sources)), clock_(clock)
{
}

AwsCredentials CredentialChain::get()
{
    std::lock_guard<std::mutex> lock(mutex_);
    if (cached_ && (cached_->expiration == 0 || clock_.now() < cached_->expiration - refresh_margin))
        return *cached_;
    cached_.reset();
    std::string tried;
    for (auto& source : sources_) {
        if (auto c = source->load()) {
            cached_ = std::move(c);
            return *cached_;
        }
        tried += (tried.empty() ? "" : ", ") + std::string(source->name());
    }
    throw CredentialError("no AWS credentials found (tried " + tried + ")");
}

std::vector<std::unique_ptr<CredentialSource>> default_credential_sources(const EnvironmentLookup& env,
                                                                          HttpTransport& imds)
{
    std::vector<std::unique_ptr<CredentialSource>> sources;
    sources.push_back(std::make_unique<EnvironmentCredentials>(env));
    sources.push_back(std::make_unique<SharedFileCredentials>(env));
    sources.push_back(std::make_unique<ImdsCredentials>(
        imds, env("AWS_EC2_METADATA_SERVICE_ENDPOINT").value_or("http://169.254.169.254")));
    return sources;
}

CredentialChain default_credential_chain(const EnvironmentLookup& env, HttpTransport& imds, const Clock& clock)
{
    return CredentialChain(default_credential_sources(env, imds), clock);
}

} // namespace burst

#include "provider/gcp/gcp_token_source_factory.hpp"

#include "provider/gcp/metadata_token_source.hpp"
#include "provider/gcp/service_account_token_source.hpp"

#include <stdexcept>

namespace burst {

std::unique_ptr<BearerTokenSource> make_gcp_token_source(HttpTransport& transport, const GcpProviderConfig& config,
                                                         const std::string& credentials_file, const Clock& clock)
{
    if (config.token_source == GcpTokenSource::Metadata) {
        if (!credentials_file.empty())
            throw GcpConfigError("TokenSource=metadata takes no CredentialsFile=");
        return std::make_unique<MetadataTokenSource>(transport, clock, config.metadata_origin);
    }
    if (credentials_file.empty())
        throw GcpConfigError("CredentialsFile= (a service-account key JSON) is required unless TokenSource=metadata");
    try {
        return std::make_unique<ServiceAccountTokenSource>(transport, load_service_account_key(credentials_file), clock);
    } catch (const std::runtime_error& e) {
        throw GcpConfigError(e.what());
    }
}

} // namespace burst

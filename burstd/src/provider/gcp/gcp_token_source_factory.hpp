#pragma once
// The token source a GcpProviderConfig asks for: the service-account key in
// credentials_file (read and checked now, so a bad file fails at start-up),
// or the metadata server (credentials_file must then be empty).

#include "model/clock.hpp"
#include "provider/cloud/bearer_token_source.hpp"
#include "provider/gcp/gcp_config.hpp"
#include "provider/http/http_transport.hpp"

#include <memory>
#include <string>

namespace burst {

// Throws GcpConfigError (naming the file and field) on any problem.
std::unique_ptr<BearerTokenSource> make_gcp_token_source(HttpTransport& transport, const GcpProviderConfig& config,
                                                         const std::string& credentials_file, const Clock& clock);

} // namespace burst

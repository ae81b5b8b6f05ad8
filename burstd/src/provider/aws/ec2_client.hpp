#pragma once
// Sends signed EC2 Query API calls and turns every failure (no credentials,
// network, HTTP error with an EC2 error document) into a classified
// ProviderError.  Never throws for provider-side failures.

#include "model/clock.hpp"
#include "provider/aws/credential_chain.hpp"
#include "provider/aws/ec2_query.hpp"
#include "provider/aws/sigv4_signer.hpp"
#include "provider/http/http_transport.hpp"
#include "provider/provider.hpp"

#include <string>

namespace burst {

struct Ec2Reply {
    std::string body; // the response document when !error
    ProviderError error;
};

class Ec2Client {
public:
    // `endpoint` like "https://ec2.us-east-1.amazonaws.com".
    Ec2Client(HttpTransport& transport, CredentialChain& credentials, const Clock& clock, std::string region,
              std::string endpoint);

    Ec2Reply call(const Ec2Params& params);

private:
    HttpTransport& transport_;
    CredentialChain& credentials_;
    const Clock& clock_;
    SigV4Signer signer_;
    std::string endpoint_;
    std::string host_;
};

} // namespace burst

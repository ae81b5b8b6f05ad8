#include "provider/aws/ec2_client.hpp"

#include "provider/aws/ec2_error_classifier.hpp"

#include <stdexcept>
#include <utility>

namespace burst {

namespace {

std::string host_of(const std::string& endpoint)
{
    size_t start = endpoint.find("://");
    if (start == std::string::npos)
        throw std::invalid_argument("EC2 endpoint '" + endpoint + "' has no scheme (expected https://host)");
    start += 3;
    return endpoint.substr(start, endpoint.find('/', start) - start);
}

} // namespace

Ec2Client::Ec2Client(HttpTransport& transport, CredentialChain& credentials, const Clock& clock, std::string region,
                     std::string endpoint)
    : transport_(transport),
      credentials_(credentials),
      clock_(clock),
      signer_(SigV4Options{std::move(region), "ec2", true, false, false}),
      endpoint_(std::move(endpoint)),
      host_(host_of(endpoint_))
{
}

Ec2Reply Ec2Client::call(const Ec2Params& params)
{
    const std::string action = params.empty() ? std::string("?") : params.front().second;
    Ec2Reply reply;
    AwsCredentials creds;
    try {
        creds = credentials_.get();
    } catch (const CredentialError& e) {
        reply.error = {ProviderErrorKind::Auth, std::string("EC2 ") + action + ": " + e.what(), 0};
        return reply;
    }
    HttpRequest req;
    req.origin = endpoint_;
    req.method = "POST";
    req.path = "/";
    req.headers = {{"Host", host_}, {"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"}};
    req.body = ec2_form_body(params);
    signer_.sign(req, creds, clock_.now());
    // Credentials from the chain may have been renewed meanwhile; the ones
    // signed with first still serve if the chain fails now.
    req.sign_again = [this, creds](HttpRequest& r) {
        AwsCredentials now_creds = creds;
        try {
            now_creds = credentials_.get();
        } catch (const CredentialError&) {
        }
        signer_.sign(r, now_creds, clock_.now());
    };

    HttpResponse resp = transport_.perform(req);
    if (!resp.transport_error.empty()) {
        reply.error = {ProviderErrorKind::Transient, "EC2 " + action + ": " + resp.transport_error, 0};
        return reply;
    }
    if (resp.status == 200) {
        reply.body = std::move(resp.body);
        return reply;
    }
    reply.error = classify_ec2_response(resp, action);
    return reply;
}

} // namespace burst

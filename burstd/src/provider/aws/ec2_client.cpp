#include "provider/aws/ec2_client.hpp"

#include "provider/aws/ec2_error_classifier.hpp"
#include "provider/aws/ec2_responses.hpp"

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

Seconds retry_after(const HttpResponse& r)
{
    std::string v = r.header("Retry-After");
    if (v.empty() || v.size() > 6 || v.find_first_not_of("0123456789") != std::string::npos)
        return 0;
    return std::stod(v);
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

    HttpResponse resp = transport_.perform(req);
    if (!resp.transport_error.empty()) {
        reply.error = {ProviderErrorKind::Transient, "EC2 " + action + ": " + resp.transport_error, 0};
        return reply;
    }
    if (resp.status == 200) {
        reply.body = std::move(resp.body);
        return reply;
    }
    std::string code;
    std::string message;
    try {
        auto errors = parse_error_response(resp.body);
        code = errors.front().code;
        message = errors.front().message;
    } catch (const XmlError&) {
        message = "no EC2 error document in the response";
    }
    reply.error.kind = classify_ec2_error(code, resp.status);
    reply.error.message = "EC2 " + action + ": HTTP " + std::to_string(resp.status) +
                          (code.empty() ? "" : " " + code) + (message.empty() ? "" : ": " + message);
    reply.error.retry_after = retry_after(resp);
    return reply;
}

} // namespace burst

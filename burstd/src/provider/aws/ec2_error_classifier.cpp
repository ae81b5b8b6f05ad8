#include "provider/aws/ec2_error_classifier.hpp"

#include "common/text.hpp"
#include "provider/aws/ec2_responses.hpp"

#include <algorithm>
#include <initializer_list>

namespace burst {

namespace {

bool one_of(std::string_view code, std::initializer_list<std::string_view> codes)
{
    return std::find(codes.begin(), codes.end(), code) != codes.end();
}

} // namespace

ProviderErrorKind classify_ec2_error(std::string_view code, long http_status)
{
    if (one_of(code, {"InsufficientInstanceCapacity", "InsufficientHostCapacity",
                      "InsufficientReservedInstanceCapacity", "InsufficientCapacity", "Unsupported",
                      "SpotMaxPriceTooLow", "InsufficientFreeAddressesInSubnet",
                      "InsufficientCapacityOnOutpost"}))
        return ProviderErrorKind::Capacity;
    if (one_of(code, {"InstanceLimitExceeded", "VcpuLimitExceeded", "MaxSpotInstanceCountExceeded",
                      "MaxSpotFleetRequestCountExceeded", "ResourceLimitExceeded"}))
        return ProviderErrorKind::Quota;
    if (one_of(code, {"RequestLimitExceeded", "Throttling", "ThrottlingException", "RequestThrottled",
                      "SlowDown"}))
        return ProviderErrorKind::Throttled;
    if (one_of(code, {"AuthFailure", "UnauthorizedOperation", "InvalidClientTokenId", "SignatureDoesNotMatch",
                      "IncompleteSignature", "MissingAuthenticationToken", "OptInRequired", "Blocked",
                      "PendingVerification", "ExpiredToken", "RequestExpired", "AccessDenied",
                      "AccessDeniedException", "UnrecognizedClientException"}) ||
        starts_with(code, "AuthFailure."))
        return ProviderErrorKind::Auth;
    if (one_of(code, {"InternalError", "InternalFailure", "ServiceUnavailable", "Unavailable"}))
        return ProviderErrorKind::Transient;
    if (starts_with(code, "Invalid") || starts_with(code, "Missing") || starts_with(code, "Unknown") ||
        one_of(code, {"IdempotentParameterMismatch", "DryRunOperation", "ValidationError",
                      "OperationNotPermitted", "UnsupportedOperation"}))
        return ProviderErrorKind::Invalid;
    if (http_status == 401 || http_status == 403)
        return ProviderErrorKind::Auth;
    if (http_status == 429)
        return ProviderErrorKind::Throttled;
    if (http_status >= 500 || http_status == 0)
        return ProviderErrorKind::Transient;
    return ProviderErrorKind::Invalid;
}

ProviderError classify_ec2_response(const HttpResponse& response, std::string_view action)
{
    ProviderError error;
    if (response.status == 200)
        return error;
    std::string code;
    std::string message;
    try {
        auto errors = parse_error_response(response.body);
        code = errors.front().code;
        message = errors.front().message;
    } catch (const XmlError&) {
        message = "no EC2 error document in the response";
    }
    error.kind = classify_ec2_error(code, response.status);
    error.message = "EC2 " + std::string(action) + ": HTTP " + std::to_string(response.status) +
                    (code.empty() ? "" : " " + code) + (message.empty() ? "" : ": " + message);
    error.retry_after = retry_after_seconds(response);
    return error;
}

RequestKind ec2_request_kind(const HttpRequest& request)
{
    std::string_view body = request.body;
    const std::size_t at = body.rfind("Action=", 0) == 0 ? 0 : body.find("&Action=");
    if (at == std::string_view::npos)
        return RequestKind::Write;
    const std::string_view action = body.substr(body.find('=', at) + 1);
    for (std::string_view reader : {"Describe", "List", "Get", "Search"})
        if (starts_with(action, reader))
            return RequestKind::Read;
    return RequestKind::Write;
}

ThrottleRules ec2_throttle_rules()
{
    ThrottleRules r;
    r.kind = ec2_request_kind;
    r.classify = [](const HttpResponse& response) { return classify_ec2_response(response, "call"); };
    return r;
}

} // namespace burst

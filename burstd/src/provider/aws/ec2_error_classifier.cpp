#include "provider/aws/ec2_error_classifier.hpp"

#include "common/text.hpp"

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

} // namespace burst

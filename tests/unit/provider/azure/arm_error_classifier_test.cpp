#include "provider/azure/arm_error_classifier.hpp"

#include "common/json_ref.hpp"

#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

HttpResponse response(long status, const std::string& body, std::vector<HttpHeader> headers = {})
{
    HttpResponse r;
    r.status = status;
    r.body = body;
    r.headers = std::move(headers);
    return r;
}

std::string arm_error(const std::string& code, const std::string& message = "detail")
{
    return R"({"error": {"code": ")" + code + R"(", "message": ")" + message + R"("}})";
}

ProviderErrorKind kind(long status, const std::string& code)
{
    return classify_arm_response(response(status, arm_error(code)), "x").kind;
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

} // namespace

TEST_GROUP(ArmErrorClassifier){};

TEST(ArmErrorClassifier, HttpAnswers)
{
    CHECK(!classify_arm_response(response(201, "{}"), "x"));
    const auto throttled = classify_arm_response(
        response(429, arm_error("TooManyRequests", "throttled"), {{"Retry-After", "17"}}), "PUT vm");
    CHECK(throttled.kind == ProviderErrorKind::Throttled);
    DOUBLES_EQUAL(17, throttled.retry_after, 0);
    CHECK(kind(409, "OperationNotAllowed") == ProviderErrorKind::Quota);
    CHECK(kind(409, "QuotaExceeded") == ProviderErrorKind::Quota);
    CHECK(kind(409, "AllocationFailed") == ProviderErrorKind::Capacity);
    CHECK(kind(409, "ZonalAllocationFailed") == ProviderErrorKind::Capacity);
    CHECK(kind(409, "OverconstrainedAllocationRequest") == ProviderErrorKind::Capacity);
    CHECK(kind(409, "SkuNotAvailable") == ProviderErrorKind::Capacity);
    CHECK(kind(401, "InvalidAuthenticationToken") == ProviderErrorKind::Auth);
    CHECK(kind(403, "AuthorizationFailed") == ProviderErrorKind::Auth);
    CHECK(kind(401, "ExpiredAuthenticationToken") == ProviderErrorKind::Auth);
    CHECK(kind(400, "InvalidParameter") == ProviderErrorKind::Invalid);
    CHECK(kind(404, "ResourceNotFound") == ProviderErrorKind::Invalid);
    CHECK(kind(500, "InternalServerError") == ProviderErrorKind::Transient);
    CHECK(classify_arm_response(response(502, "<html/>"), "x").kind == ProviderErrorKind::Transient);
    HttpResponse timeout;
    timeout.transport_error = "Operation timed out";
    CHECK(classify_arm_response(timeout, "x").kind == ProviderErrorKind::Transient);
    const auto quota = classify_arm_response(
        response(409, arm_error("OperationNotAllowed", "exceeding approved Total Regional Cores quota")), "PUT vm");
    CHECK(has(quota.message, "PUT vm: HTTP 409 OperationNotAllowed: exceeding approved Total Regional Cores quota"));
}

TEST(ArmErrorClassifier, OperationErrorsAndDetails)
{
    json_error_t err;
    JsonRef nested(json_loads(R"({"code": "ProvisioningFailed", "message": "failed",
                                  "details": [{"code": "ZonalAllocationFailed", "message": "no room"}]})",
                              0, &err));
    const auto e = classify_arm_operation_error(nested.get(), "Failed", "create VM c1");
    CHECK(e.kind == ProviderErrorKind::Capacity);
    CHECK(has(e.message, "create VM c1: Failed ProvisioningFailed/ZonalAllocationFailed: failed"));
    JsonRef other(json_loads(R"({"code": "InternalExecutionError"})", 0, &err));
    CHECK(classify_arm_operation_error(other.get(), "Failed", "x").kind == ProviderErrorKind::Transient);
    CHECK(classify_arm_operation_error(nullptr, "Canceled", "x").kind == ProviderErrorKind::Transient);
    JsonRef quota(json_loads(R"({"code": "QuotaExceeded"})", 0, &err));
    CHECK(classify_arm_operation_error(quota.get(), "Failed", "x").kind == ProviderErrorKind::Quota);
}

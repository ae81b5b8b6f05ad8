#include "provider/gcp/gce_error_classifier.hpp"

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

std::string api_error(int code, const std::string& reason, const std::string& message)
{
    return R"({"error": {"code": )" + std::to_string(code) + R"(, "message": ")" + message +
           R"(", "errors": [{"domain": "usageLimits", "reason": ")" + reason + R"(", "message": ")" + message +
           R"("}]}})";
}

ProviderErrorKind operation_kind(const std::string& codes_json)
{
    json_error_t err;
    JsonRef error(json_loads(codes_json.c_str(), 0, &err));
    return classify_gce_operation_error(error.get(), "op").kind;
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

} // namespace

TEST_GROUP(GceErrorClassifier){};

TEST(GceErrorClassifier, HttpAnswers)
{
    CHECK(!classify_gce_response(response(200, "{}"), "x"));
    const auto throttled = classify_gce_response(
        response(403, api_error(403, "rateLimitExceeded", "Rate Limit Exceeded"), {{"Retry-After", "7"}}), "insert");
    CHECK(throttled.kind == ProviderErrorKind::Throttled);
    DOUBLES_EQUAL(7, throttled.retry_after, 0);
    CHECK(has(throttled.message, "rateLimitExceeded"));
    CHECK(classify_gce_response(response(403, api_error(403, "userRateLimitExceeded", "slow down")), "x").kind ==
          ProviderErrorKind::Throttled);
    const auto too_many = classify_gce_response(response(429, "", {{"retry-after", "3"}}), "x");
    CHECK(too_many.kind == ProviderErrorKind::Throttled);
    DOUBLES_EQUAL(3, too_many.retry_after, 0);
    CHECK(classify_gce_response(response(403, api_error(403, "quotaExceeded", "Quota 'CPUS' exceeded")), "x").kind ==
          ProviderErrorKind::Quota);
    CHECK(classify_gce_response(response(401, api_error(401, "authError", "Invalid Credentials")), "x").kind ==
          ProviderErrorKind::Auth);
    CHECK(classify_gce_response(response(403, api_error(403, "forbidden", "Required 'compute.instances.create'")), "x")
              .kind == ProviderErrorKind::Auth);
    CHECK(classify_gce_response(response(400, api_error(400, "invalid", "Invalid value for field")), "x").kind ==
          ProviderErrorKind::Invalid);
    CHECK(classify_gce_response(response(404, api_error(404, "notFound", "not found")), "x").kind ==
          ProviderErrorKind::Invalid);
    CHECK(classify_gce_response(response(503, "<html>backend</html>"), "x").kind == ProviderErrorKind::Transient);
    HttpResponse timeout;
    timeout.transport_error = "Operation timed out after 30000 milliseconds";
    const auto t = classify_gce_response(timeout, "GET op");
    CHECK(t.kind == ProviderErrorKind::Transient);
    CHECK(has(t.message, "timed out"));
}

TEST(GceErrorClassifier, OperationErrors)
{
    CHECK(operation_kind(R"({"errors": [{"code": "ZONE_RESOURCE_POOL_EXHAUSTED", "message": "no room"}]})") ==
          ProviderErrorKind::Capacity);
    CHECK(operation_kind(R"({"errors": [{"code": "ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS"}]})") ==
          ProviderErrorKind::Capacity);
    CHECK(operation_kind(R"({"errors": [{"code": "QUOTA_EXCEEDED", "message": "Quota 'CPUS' exceeded."}]})") ==
          ProviderErrorKind::Quota);
    CHECK(operation_kind(R"({"errors": [{"code": "RATE_LIMIT_EXCEEDED"}]})") == ProviderErrorKind::Throttled);
    CHECK(operation_kind(R"({"errors": [{"code": "RESOURCE_NOT_FOUND"}]})") == ProviderErrorKind::Invalid);
    // Capacity wins over an unrelated code in the same operation.
    CHECK(operation_kind(R"({"errors": [{"code": "RESOURCE_NOT_FOUND"}, {"code": "ZONE_RESOURCE_POOL_EXHAUSTED"}]})") ==
          ProviderErrorKind::Capacity);
    CHECK(operation_kind(R"({"errors": []})") == ProviderErrorKind::None);
    CHECK(classify_gce_operation_error(nullptr, "op").kind == ProviderErrorKind::None);
    json_error_t err;
    JsonRef e(json_loads(R"({"errors": [{"code": "QUOTA_EXCEEDED", "message": "Quota 'CPUS' exceeded."}]})", 0, &err));
    const auto q = classify_gce_operation_error(e.get(), "operation op-1");
    CHECK(has(q.message, "operation op-1: QUOTA_EXCEEDED (Quota 'CPUS' exceeded.)"));
}

#include "provider/openstack/openstack_error.hpp"

#include "../aws/fixture.hpp"

#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

ProviderError classify(long status, const std::string& body, std::vector<HttpHeader> headers = {})
{
    HttpResponse r;
    r.status = status;
    r.body = body;
    r.headers = std::move(headers);
    return classify_openstack_response(r, "nova POST /servers");
}

} // namespace

TEST_GROUP(OpenStackError){};

TEST(OpenStackError, QuotaExceededIsQuota)
{
    const auto e = classify(403, R"({"forbidden": {"code": 403, "message": "Quota exceeded for instances: Requested 1, but already used 3 of 3 instances"}})");
    CHECK(e.kind == ProviderErrorKind::Quota);
    STRCMP_EQUAL("nova POST /servers: HTTP 403: Quota exceeded for instances: Requested 1, but already used 3 of 3 instances",
                 e.message.c_str());
    CHECK(classify(413, R"({"overLimit": {"code": 413, "message": "Quota exceeded for cores"}})").kind ==
          ProviderErrorKind::Quota);
}

TEST(OpenStackError, OtherForbiddenAndUnauthorizedAreAuth)
{
    CHECK(classify(403, R"({"forbidden": {"code": 403, "message": "Policy doesn't allow os_compute_api:servers:create"}})").kind ==
          ProviderErrorKind::Auth);
    const auto e = classify(401, provider_fixture("openstack/_v3__auth_unauthorized.json"));
    CHECK(e.kind == ProviderErrorKind::Auth);
    STRCMP_EQUAL("nova POST /servers: HTTP 401: The request you have made requires authentication.", e.message.c_str());
}

TEST(OpenStackError, ConflictsAboutStateAreTransientOthersInvalid)
{
    CHECK(classify(409, R"({"conflictingRequest": {"code": 409, "message": "Cannot 'delete' instance 1 while it is in task_state spawning"}})").kind ==
          ProviderErrorKind::Transient);
    CHECK(classify(409, R"({"conflictingRequest": {"code": 409, "message": "Multiple possible networks found, use a Network ID to be more specific."}})").kind ==
          ProviderErrorKind::Invalid);
}

TEST(OpenStackError, ThrottlingCarriesRetryAfter)
{
    auto e = classify(429, "{}", {{"Retry-After", "7"}});
    CHECK(e.kind == ProviderErrorKind::Throttled);
    DOUBLES_EQUAL(7, e.retry_after, 0);
    e = classify(503, "busy", {{"retry-after", "3"}});
    CHECK(e.kind == ProviderErrorKind::Throttled);
    DOUBLES_EQUAL(3, e.retry_after, 0);
    CHECK(classify(503, "down").kind == ProviderErrorKind::Transient);
}

TEST(OpenStackError, ServerErrorsAndTransportFailuresAreTransient)
{
    CHECK(classify(500, R"({"computeFault": {"code": 500, "message": "Unexpected API Error."}})").kind ==
          ProviderErrorKind::Transient);
    HttpResponse r;
    r.transport_error = "Timeout was reached";
    const auto e = classify_openstack_response(r, "nova GET /servers/detail");
    CHECK(e.kind == ProviderErrorKind::Transient);
    STRCMP_EQUAL("nova GET /servers/detail: Timeout was reached", e.message.c_str());
}

TEST(OpenStackError, BadRequestsAreInvalidAndSuccessIsNoError)
{
    CHECK(classify(400, R"({"badRequest": {"code": 400, "message": "Flavor x could not be found."}})").kind ==
          ProviderErrorKind::Invalid);
    CHECK(!classify(202, "{}"));
    CHECK(is_no_valid_host("No valid host was found. There are not enough hosts available."));
    CHECK(!is_no_valid_host("Build of instance aborted"));
}

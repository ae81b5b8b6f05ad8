#include "provider/http/throttled_transport.hpp"

#include "model/clock.hpp"
#include "provider/aws/ec2_error_classifier.hpp"
#include "provider/azure/arm_error_classifier.hpp"
#include "provider/gcp/gce_error_classifier.hpp"
#include "provider/openstack/openstack_error.hpp"
#include "queued_transport.hpp"

#include <CppUTest/TestHarness.h>

#include <deque>

using namespace burst;

namespace {

// The answers each cloud throttles with, in the shapes their API references
// document.
const char* const kEc2RequestLimitExceeded =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Response><Errors><Error><Code>RequestLimitExceeded</Code>"
    "<Message>Request limit exceeded.</Message></Error></Errors><RequestID>r-1</RequestID></Response>";
const char* const kEc2Throttling =
    "<Response><Errors><Error><Code>Throttling</Code><Message>Rate exceeded</Message></Error></Errors></Response>";
const char* const kGceRateLimit = R"({"error": {"code": 403, "message": "Rate Limit Exceeded",
    "errors": [{"domain": "usageLimits", "reason": "rateLimitExceeded", "message": "Rate Limit Exceeded"}]}})";
const char* const kGceUserRateLimit = R"({"error": {"code": 403, "message": "User Rate Limit Exceeded",
    "errors": [{"domain": "usageLimits", "reason": "userRateLimitExceeded"}]}})";
const char* const kArmTooManyRequests =
    R"({"error": {"code": "TooManyRequests", "message": "The request is being throttled."}})";
const char* const kNovaOverLimit = R"({"overLimit": {"code": 429, "message": "This request was rate-limited."}})";

HttpRequest get(const std::string& path)
{
    HttpRequest r;
    r.origin = "https://api.example";
    r.method = "GET";
    r.path = path;
    return r;
}

HttpRequest post(const std::string& body)
{
    HttpRequest r;
    r.origin = "https://api.example";
    r.method = "POST";
    r.path = "/";
    r.body = body;
    return r;
}

struct Harness {
    explicit Harness(RequestLimits limits, ThrottleRules rules, std::deque<double> uniforms = {})
        : clock(1000),
          budget(std::make_shared<RequestBudget>("cloud", "region-1", limits, clock)),
          jitter(std::move(uniforms)),
          transport(inner, budget, std::move(rules),
                    [this](Seconds s) {
                        sleeps.push_back(s);
                        clock.advance(s);
                    },
                    [this] {
                        const double u = jitter.empty() ? 0.5 : jitter.front();
                        if (!jitter.empty())
                            jitter.pop_front();
                        return u;
                    })
    {
    }

    ManualClock clock;
    QueuedTransport inner;
    std::shared_ptr<RequestBudget> budget;
    std::deque<double> jitter;
    std::vector<Seconds> sleeps;
    ThrottledTransport transport;
};

RequestLimits limits(BucketLimits read, BucketLimits write, int retries = 4, Seconds max_wait = 30)
{
    RequestLimits l;
    l.read = read;
    l.write = write;
    l.throttle_retries = retries;
    l.max_throttle_wait = max_wait;
    return l;
}

const RequestLimits kRoomy = limits({100, 100}, {100, 100});

} // namespace

TEST_GROUP(ThrottledTransport){};

TEST(ThrottledTransport, WaitsForATokenOnceTheBurstIsSpent)
{
    Harness h(limits({100, 100}, {2, 2}), gce_throttle_rules());
    for (int i = 0; i < 3; ++i)
        h.inner.answer(200, "{}");
    for (int i = 0; i < 3; ++i)
        LONGS_EQUAL(200, h.transport.perform(post("{}")).status);
    LONGS_EQUAL(1, h.sleeps.size());
    DOUBLES_EQUAL(0.5, h.sleeps[0], 1e-9);
    const RequestBudgetView v = h.budget->view();
    LONGS_EQUAL(3, v.writes);
    LONGS_EQUAL(0, v.reads);
    DOUBLES_EQUAL(0.5, v.bucket_wait, 1e-9);
}

TEST(ThrottledTransport, ReadsAndWritesSpendSeparateBuckets)
{
    Harness h(limits({1, 1}, {1, 1}), gce_throttle_rules());
    h.inner.answer(200, "{}").answer(200, "{}");
    h.transport.perform(get("/instances"));
    h.transport.perform(post("{}"));
    CHECK(h.sleeps.empty());
    LONGS_EQUAL(1, h.budget->view().reads);
    LONGS_EQUAL(1, h.budget->view().writes);
}

TEST(ThrottledTransport, Ec2ReadsAreTheDescribeListGetAndSearchActions)
{
    CHECK(ec2_request_kind(post("Action=DescribeInstances&Version=2016-11-15")) == RequestKind::Read);
    CHECK(ec2_request_kind(post("Version=2016-11-15&Action=GetConsoleOutput")) == RequestKind::Read);
    CHECK(ec2_request_kind(post("Action=RunInstances&Version=2016-11-15")) == RequestKind::Write);
    CHECK(ec2_request_kind(post("Action=TerminateInstances")) == RequestKind::Write);
    CHECK(ec2_request_kind(post("Action=CreateFleet&Type=instant")) == RequestKind::Write);
    CHECK(ec2_request_kind(post("NoAction=DescribeX")) == RequestKind::Write);
}

TEST(ThrottledTransport, RetriesEc2RequestLimitExceededWithGrowingJitteredBackoff)
{
    // u = 0 and u = 1: the back-off spans half to all of 1 s, 2 s, 4 s.
    Harness h(kRoomy, ec2_throttle_rules(), {0, 1, 0});
    h.inner.answer(503, kEc2RequestLimitExceeded)
        .answer(400, kEc2Throttling)
        .answer(503, kEc2RequestLimitExceeded)
        .answer(200, "<DescribeInstancesResponse/>");
    const HttpResponse r = h.transport.perform(post("Action=DescribeInstances&Version=2016-11-15"));
    LONGS_EQUAL(200, r.status);
    LONGS_EQUAL(4, h.inner.sent.size());
    LONGS_EQUAL(3, h.sleeps.size());
    // Each wait is the back-off plus the token after it (1/100 s).
    DOUBLES_EQUAL(0.5 + 0.01, h.sleeps[0], 1e-9);
    DOUBLES_EQUAL(2 + 0.01, h.sleeps[1], 1e-9);
    DOUBLES_EQUAL(2 + 0.01, h.sleeps[2], 1e-9);
    const RequestBudgetView v = h.budget->view();
    LONGS_EQUAL(3, v.throttled);
    LONGS_EQUAL(0, v.gave_up);
    LONGS_EQUAL(4, v.reads);
    DOUBLES_EQUAL(4.53, v.backoff_wait, 1e-9);
    DOUBLES_EQUAL(0, v.bucket_wait, 1e-9);
}

TEST(ThrottledTransport, HonoursAzureRetryAfterWithUpToAFifthMore)
{
    Harness h(kRoomy, arm_throttle_rules(), {0.5});
    h.inner.answer(429, kArmTooManyRequests, {{"Retry-After", "10"}}).answer(200, "{}");
    LONGS_EQUAL(200, h.transport.perform(post("{}")).status);
    LONGS_EQUAL(1, h.sleeps.size());
    DOUBLES_EQUAL(11 + 0.01, h.sleeps[0], 1e-9);
}

TEST(ThrottledTransport, RetriesGceRateLimitAndUserRateLimit)
{
    Harness h(kRoomy, gce_throttle_rules());
    h.inner.answer(403, kGceRateLimit).answer(403, kGceUserRateLimit).answer(200, "{}");
    LONGS_EQUAL(200, h.transport.perform(get("/compute/v1/projects/p/zones/z/instances")).status);
    LONGS_EQUAL(2, h.budget->view().throttled);
}

TEST(ThrottledTransport, RetriesNovaOverLimit)
{
    Harness h(kRoomy, nova_throttle_rules());
    h.inner.answer(429, kNovaOverLimit, {{"Retry-After", "2"}}).answer(202, "{}");
    LONGS_EQUAL(202, h.transport.perform(post("{}")).status);
    LONGS_EQUAL(1, h.budget->view().throttled);
}

TEST(ThrottledTransport, OtherErrorsGoBackAtOnce)
{
    Harness h(kRoomy, gce_throttle_rules());
    h.inner.answer(403, R"({"error": {"code": 403, "errors": [{"reason": "quotaExceeded"}]}})")
        .answer(503, "{}")
        .fail("connection refused");
    LONGS_EQUAL(403, h.transport.perform(post("{}")).status);
    LONGS_EQUAL(503, h.transport.perform(post("{}")).status);
    STRCMP_EQUAL("connection refused", h.transport.perform(post("{}")).transport_error.c_str());
    LONGS_EQUAL(3, h.inner.sent.size());
    CHECK(h.sleeps.empty());
    LONGS_EQUAL(0, h.budget->view().throttled);
}

TEST(ThrottledTransport, GivesUpAfterTheRetriesAndTheProviderSeesThrottled)
{
    Harness h(limits({100, 100}, {100, 100}, 2), ec2_throttle_rules());
    for (int i = 0; i < 3; ++i)
        h.inner.answer(503, kEc2RequestLimitExceeded);
    const HttpResponse r = h.transport.perform(post("Action=RunInstances"));
    LONGS_EQUAL(503, r.status);
    LONGS_EQUAL(3, h.inner.sent.size());
    CHECK(h.inner.exhausted());
    CHECK(classify_ec2_response(r, "RunInstances").kind == ProviderErrorKind::Throttled);
    const RequestBudgetView v = h.budget->view();
    LONGS_EQUAL(3, v.throttled);
    LONGS_EQUAL(1, v.gave_up);
}

TEST(ThrottledTransport, ARetryAfterAboveTheLongestWaitIsNotWaitedFor)
{
    Harness h(limits({100, 100}, {100, 100}, 4, 30), arm_throttle_rules());
    h.inner.answer(429, kArmTooManyRequests, {{"Retry-After", "3600"}});
    const HttpResponse r = h.transport.perform(post("{}"));
    LONGS_EQUAL(429, r.status);
    CHECK(h.sleeps.empty());
    DOUBLES_EQUAL(3600, classify_arm_response(r, "PUT vm").retry_after, 1e-9);
    LONGS_EQUAL(1, h.budget->view().gave_up);
}

TEST(ThrottledTransport, AThrottleHoldsBackTheProvidersOtherCallsOfThatKind)
{
    Harness h(limits({10, 10}, {10, 10}, 0), gce_throttle_rules());
    h.inner.answer(429, "{}").answer(200, "{}").answer(200, "{}");
    LONGS_EQUAL(429, h.transport.perform(post("{}")).status);
    // The write bucket was drained: the next write waits a token's time,
    // a read does not.
    h.transport.perform(get("/x"));
    CHECK(h.sleeps.empty());
    h.transport.perform(post("{}"));
    LONGS_EQUAL(1, h.sleeps.size());
    DOUBLES_EQUAL(0.1, h.sleeps[0], 1e-9);
}

TEST(ThrottledTransport, ARequestThatWaitedIsSignedAgainBeforeItGoes)
{
    Harness h(limits({100, 100}, {1, 1}), gce_throttle_rules());
    h.inner.answer(200, "{}").answer(200, "{}");
    auto stamped = [&h](HttpRequest& r) { r.headers = {{"Date", std::to_string(h.clock.now())}}; };
    HttpRequest first = post("{}");
    first.sign_again = stamped;
    first.headers = {{"Date", "signed"}};
    HttpRequest second = first;
    h.transport.perform(first);
    h.transport.perform(second);
    STRCMP_EQUAL("signed", h.inner.sent[0].header("Date").c_str());
    STRCMP_EQUAL(std::to_string(1001.0).c_str(), h.inner.sent[1].header("Date").c_str());
}

TEST(ThrottledTransport, BackoffIsCappedByTheLongestWait)
{
    Harness h(limits({1, 1}, {1, 1}, 10, 5), gce_throttle_rules(), {1, 1});
    DOUBLES_EQUAL(5, h.transport.backoff(8, 0), 1e-9);
    DOUBLES_EQUAL(5, h.transport.backoff(0, 4.5), 1e-9);
}

TEST(ThrottledTransport, RetryAfterIsWholeSecondsOrUnknown)
{
    HttpResponse r;
    r.headers = {{"retry-after", "17"}};
    DOUBLES_EQUAL(17, retry_after_seconds(r), 1e-9);
    r.headers = {{"Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT"}};
    DOUBLES_EQUAL(0, retry_after_seconds(r), 1e-9);
    r.headers = {{"Retry-After", "-3"}};
    DOUBLES_EQUAL(0, retry_after_seconds(r), 1e-9);
    r.headers = {};
    DOUBLES_EQUAL(0, retry_after_seconds(r), 1e-9);
}

TEST_GROUP(RequestBudgets){};

TEST(RequestBudgets, AProviderBuiltAgainKeepsItsBudget)
{
    ManualClock clock(0);
    RequestBudgets budgets;
    auto first = budgets.get("aws-east", "us-east-1", kRoomy, clock);
    first->reserve(RequestKind::Write);
    auto again = budgets.get("aws-east", "us-east-1", limits({1, 1}, {1, 1}), clock);
    CHECK(first == again);
    budgets.get("gce", "global", kRoomy, clock);
    const auto views = budgets.views();
    LONGS_EQUAL(2, views.size());
    STRCMP_EQUAL("aws-east", views[0].provider.c_str());
    STRCMP_EQUAL("us-east-1", views[0].region.c_str());
    LONGS_EQUAL(1, views[0].writes);
    STRCMP_EQUAL("gce", views[1].provider.c_str());
}

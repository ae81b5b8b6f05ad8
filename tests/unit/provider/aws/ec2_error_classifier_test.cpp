#include "provider/aws/ec2_error_classifier.hpp"

#include <CppUTest/TestHarness.h>

using namespace burst;

TEST_GROUP(Ec2ErrorClassifier){};

TEST(Ec2ErrorClassifier, MapsDocumentedCodes)
{
    CHECK(classify_ec2_error("InsufficientInstanceCapacity", 500) == ProviderErrorKind::Capacity);
    CHECK(classify_ec2_error("InsufficientHostCapacity", 500) == ProviderErrorKind::Capacity);
    CHECK(classify_ec2_error("Unsupported", 400) == ProviderErrorKind::Capacity);
    CHECK(classify_ec2_error("InstanceLimitExceeded", 400) == ProviderErrorKind::Quota);
    CHECK(classify_ec2_error("VcpuLimitExceeded", 400) == ProviderErrorKind::Quota);
    CHECK(classify_ec2_error("RequestLimitExceeded", 503) == ProviderErrorKind::Throttled);
    CHECK(classify_ec2_error("Throttling", 400) == ProviderErrorKind::Throttled);
    CHECK(classify_ec2_error("AuthFailure", 401) == ProviderErrorKind::Auth);
    CHECK(classify_ec2_error("UnauthorizedOperation", 403) == ProviderErrorKind::Auth);
    CHECK(classify_ec2_error("InternalError", 500) == ProviderErrorKind::Transient);
    CHECK(classify_ec2_error("Unavailable", 503) == ProviderErrorKind::Transient);
    CHECK(classify_ec2_error("InvalidParameterValue", 400) == ProviderErrorKind::Invalid);
    CHECK(classify_ec2_error("InvalidLaunchTemplateId.NotFound", 400) == ProviderErrorKind::Invalid);
    CHECK(classify_ec2_error("IdempotentParameterMismatch", 400) == ProviderErrorKind::Invalid);
}

TEST(Ec2ErrorClassifier, UnknownCodesFallBackOnHttpStatus)
{
    CHECK(classify_ec2_error("SomethingNew", 502) == ProviderErrorKind::Transient);
    CHECK(classify_ec2_error("SomethingNew", 403) == ProviderErrorKind::Auth);
    CHECK(classify_ec2_error("SomethingNew", 429) == ProviderErrorKind::Throttled);
    CHECK(classify_ec2_error("SomethingNew", 400) == ProviderErrorKind::Invalid);
    CHECK(classify_ec2_error("SomethingNew", 0) == ProviderErrorKind::Transient);
}

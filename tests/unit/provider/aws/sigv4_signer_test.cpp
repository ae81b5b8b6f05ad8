#include "provider/aws/sigv4_signer.hpp"

#include <stdexcept>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

SigV4Signer ec2_signer() { return SigV4Signer({"us-east-1", "ec2", true, false, false}); }

AwsCredentials creds()
{
    AwsCredentials c;
    c.access_key_id = "AKIDEXAMPLE";
    c.secret_access_key = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
    return c;
}

HttpRequest request()
{
    HttpRequest r;
    r.method = "POST";
    r.path = "/";
    r.headers = {{"Host", "ec2.us-east-1.amazonaws.com"}};
    r.body = "Action=DescribeInstances&Version=2016-11-15";
    return r;
}

size_t count_header(const HttpRequest& r, const char* name)
{
    size_t n = 0;
    for (const auto& h : r.headers)
        n += header_name_equals(h.name, name);
    return n;
}

} // namespace

TEST_GROUP(SigV4Signer){};

TEST(SigV4Signer, FormatsAmzDateInUtc) { STRCMP_EQUAL("20150830T123600Z", amz_date(1440938160).c_str()); }

TEST(SigV4Signer, EncodesAnAlreadyEncodedPathAgainForNonS3Services)
{
    STRCMP_EQUAL("/a%2520b/c", ec2_signer().canonical_path("/a%20b/./x/../c").c_str());
    SigV4Signer s3({"us-east-1", "s3", false, false, false});
    STRCMP_EQUAL("/a%20b/./x/../c", s3.canonical_path("/a b/./x/../c").c_str());
}

TEST(SigV4Signer, CanonicalQuerySortsByKeyThenValueAndReencodes)
{
    STRCMP_EQUAL("a=&b=1&b=2&c=%2B%20", SigV4Signer::canonical_query("b=2&c=+%20&a&b=1&").c_str());
}

TEST(SigV4Signer, ResigningReplacesTheEarlierAuthenticationHeaders)
{
    HttpRequest r = request();
    AwsCredentials c = creds();
    c.session_token = "tok";
    SigV4Trace first = ec2_signer().sign(r, c, 1440938160);
    SigV4Trace second = ec2_signer().sign(r, c, 1440938161);
    LONGS_EQUAL(1, count_header(r, "Authorization"));
    LONGS_EQUAL(1, count_header(r, "X-Amz-Date"));
    LONGS_EQUAL(1, count_header(r, "X-Amz-Security-Token"));
    CHECK(first.signature != second.signature);
    STRCMP_EQUAL("20150830T123601Z", r.header("x-amz-date").c_str());
}

TEST(SigV4Signer, TraceNeverContainsTheSecret)
{
    HttpRequest r = request();
    SigV4Trace t = ec2_signer().sign(r, creds(), 1440938160);
    CHECK(t.canonical_request.find("wJalr") == std::string::npos);
    CHECK(t.string_to_sign.find("wJalr") == std::string::npos);
    CHECK(r.header("Authorization").find("wJalr") == std::string::npos);
}

TEST(SigV4Signer, RejectsRequestsItCannotSign)
{
    HttpRequest r = request();
    r.headers.clear();
    CHECK_THROWS(std::invalid_argument, ec2_signer().sign(r, creds(), 0));
    HttpRequest p = request();
    CHECK_THROWS(std::invalid_argument, ec2_signer().presign(p, creds(), 0, 0));
    CHECK_THROWS(std::invalid_argument, SigV4Signer({"", "ec2", true, false, false}));
}

#include "provider/openstack/keystone_session.hpp"

#include "../aws/fixture.hpp"
#include "../http/queued_transport.hpp"

#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

OpenStackCredentials password_credentials()
{
    return parse_openstack_credentials("AuthUrl=http://keystone:5000/v3\nUsername=demo\nUserDomainName=Default\n"
                                       "Password=pa55-secret\nProjectName=demo\nProjectDomainName=Default\n",
                                       "creds");
}

const std::vector<HttpHeader> kToken = {{"X-Subject-Token", "tok-1"}};

bool has(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

} // namespace

TEST_GROUP(KeystoneSession)
{
    QueuedTransport transport;
    ManualClock clock{parse_keystone_time("2014-08-10T18:00:00Z")}; // the fixture's token expires 19:15:57
};

TEST(KeystoneSession, PasswordAuthPicksTheComputeEndpointOfInterfaceAndRegion)
{
    KeystoneSession s(transport, password_credentials(), clock, "regionOne", "internal");
    transport.answer(201, provider_fixture("openstack/_v3__auth.json"), kToken);
    ProviderError e;
    STRCMP_EQUAL("tok-1", s.token(e).c_str());
    CHECK(!e);
    STRCMP_EQUAL("http://controller:8774", s.compute_endpoint().origin.c_str());
    STRCMP_EQUAL("/v2/9c4693dce56b493b9b83197d900f7fba", s.compute_endpoint().path.c_str());
    const HttpRequest& req = transport.sent.at(0);
    STRCMP_EQUAL("POST", req.method.c_str());
    STRCMP_EQUAL("http://keystone:5000", req.origin.c_str());
    STRCMP_EQUAL("/v3/auth/tokens", req.path.c_str());
    STRCMP_EQUAL("{\"auth\":{\"identity\":{\"methods\":[\"password\"],\"password\":{\"user\":{\"name\":\"demo\","
                 "\"domain\":{\"name\":\"Default\"},\"password\":\"pa55-secret\"}}},\"scope\":{\"project\":"
                 "{\"name\":\"demo\",\"domain\":{\"name\":\"Default\"}}}}}",
                 req.body.c_str());
}

TEST(KeystoneSession, CachesTheTokenUntilShortlyBeforeItExpires)
{
    KeystoneSession s(transport, password_credentials(), clock, "", "public");
    transport.answer(201, provider_fixture("openstack/_v3__auth.json"), kToken);
    ProviderError e;
    s.token(e);
    STRCMP_EQUAL("http://192.168.18.100:8774", s.compute_endpoint().origin.c_str());
    clock.advance(3600); // 19:00, more than two minutes left
    s.token(e);
    LONGS_EQUAL(1, transport.sent.size());
    clock.advance(900); // 19:15: about to expire
    transport.answer(201, provider_fixture("openstack/_v3__auth.json"), {{"X-Subject-Token", "tok-2"}});
    STRCMP_EQUAL("tok-2", s.token(e).c_str());
    LONGS_EQUAL(2, transport.sent.size());
    s.invalidate();
    transport.answer(201, provider_fixture("openstack/_v3__auth.json"), {{"X-Subject-Token", "tok-3"}});
    STRCMP_EQUAL("tok-3", s.token(e).c_str());
}

TEST(KeystoneSession, ApplicationCredentialIsUnscopedInTheRequest)
{
    auto c = parse_openstack_credentials("AuthUrl=http://keystone:5000/v3\nAuthType=application_credential\n"
                                         "ApplicationCredentialId=ac1\nApplicationCredentialSecret=sss\n",
                                         "creds");
    KeystoneSession s(transport, c, clock, "", "public");
    STRCMP_EQUAL("{\"auth\":{\"identity\":{\"methods\":[\"application_credential\"],\"application_credential\":"
                 "{\"id\":\"ac1\",\"secret\":\"sss\"}}}}",
                 s.auth_request().body.c_str());
}

TEST(KeystoneSession, RejectedCredentialsAreAnAuthErrorWithoutTheSecret)
{
    KeystoneSession s(transport, password_credentials(), clock, "", "public");
    transport.answer(401, provider_fixture("openstack/_v3__auth_unauthorized.json"));
    ProviderError e;
    STRCMP_EQUAL("", s.token(e).c_str());
    CHECK(e.kind == ProviderErrorKind::Auth);
    CHECK(has(e.message, "user 'demo' project 'demo'"));
    CHECK(has(e.message, "requires authentication"));
    CHECK(!has(e.message, "pa55-secret"));
}

TEST(KeystoneSession, MissingEndpointNamesWhatTheCatalogHas)
{
    KeystoneSession s(transport, password_credentials(), clock, "Mars", "public");
    transport.answer(201, provider_fixture("openstack/_v3__auth.json"), kToken);
    ProviderError e;
    s.token(e);
    CHECK(e.kind == ProviderErrorKind::Invalid);
    CHECK(has(e.message, "no compute endpoint for interface 'public' in region 'Mars'"));
    CHECK(has(e.message, "public@regionOne"));
}

TEST(KeystoneSession, UnreachableKeystoneIsTransient)
{
    KeystoneSession s(transport, password_credentials(), clock, "", "public");
    transport.fail("Couldn't connect to server");
    ProviderError e;
    s.token(e);
    CHECK(e.kind == ProviderErrorKind::Transient);
    DOUBLES_EQUAL(-1, parse_keystone_time("2014-08-10"), 0);
}

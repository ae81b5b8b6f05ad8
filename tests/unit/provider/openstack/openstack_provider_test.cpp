#include "provider/openstack/openstack_provider.hpp"

#include "../aws/fixture.hpp"
#include "../http/queued_transport.hpp"

#include <jansson.h>

#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

const char* kAuth = R"({"token": {"expires_at": "2030-01-01T00:00:00.000000Z", "catalog": [
  {"type": "identity", "endpoints": [{"interface": "public", "region_id": "RegionOne", "url": "http://ks:5000/v3"}]},
  {"type": "compute", "endpoints": [{"interface": "public", "region_id": "RegionOne", "url": "http://nova:8774/v2.1/"}]}]}})";

std::string server(const std::string& id, const std::string& status, const std::string& task_state,
                   const std::string& token, const std::string& extra = "")
{
    return R"({"id": ")" + id + R"(", "name": "c1", "status": ")" + status + R"(", "OS-EXT-STS:task_state": )" +
           (task_state.empty() ? "null" : "\"" + task_state + "\"") +
           R"(, "addresses": {"net": [{"version": 4, "addr": "10.0.0.5", "OS-EXT-IPS:type": "fixed"}]},
              "metadata": {"burst-node": "c1", "burst-token": ")" + token + R"("}, "tags": [])" + extra + "}";
}

LaunchRequest request()
{
    LaunchRequest r;
    r.node = "c1";
    r.instance_type = "m1.small";
    r.idempotency_token = "tok-c1-1";
    r.tags = {"burst", "c1", "site-a"};
    return r;
}

bool has(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

} // namespace

TEST_GROUP(OpenStackProvider)
{
    QueuedTransport transport;
    ManualClock clock{parse_keystone_time("2029-06-01T00:00:00Z")};
    OpenStackSettings settings;
    std::unique_ptr<OpenStackProvider> provider;
    int sleeps = 0;

    void setup() override
    {
        settings.image = "img-1";
        settings.schedule_wait = 10;
        settings.poll_interval = 2;
        settings.page_size = 2;
        auto creds = parse_openstack_credentials("AuthUrl=http://ks:5000/v3\nUsername=demo\nUserDomainName=Default\n"
                                                 "Password=pw-secret\nProjectName=demo\nProjectDomainName=Default\n",
                                                 "creds");
        provider = std::make_unique<OpenStackProvider>(transport, creds, settings, clock, [this](Seconds s) {
            ++sleeps;
            clock.advance(s);
        });
        transport.answer(201, kAuth, {{"X-Subject-Token", "T1"}});
    }
};

TEST(OpenStackProvider, LaunchCreatesATaggedServerAndWaitsForTheScheduler)
{
    transport.answer(200, R"({"servers": []})")
        .answer(202, provider_fixture("openstack_v1.1/_servers_create.json"))
        .answer(200, "{\"server\": " + server("26f7fbee-8ce1-4c28-887a-bfe8e4bb10fe", "BUILD", "scheduling", "tok-c1-1") + "}")
        .answer(200, "{\"server\": " + server("26f7fbee-8ce1-4c28-887a-bfe8e4bb10fe", "BUILD", "spawning", "tok-c1-1") + "}");
    const auto results = provider->launch({request()});
    LONGS_EQUAL(1, results.size());
    CHECK(!results[0].error);
    STRCMP_EQUAL("26f7fbee-8ce1-4c28-887a-bfe8e4bb10fe", results[0].provider_id.c_str());
    STRCMP_EQUAL("10.0.0.5", results[0].address.c_str());
    LONGS_EQUAL(1, sleeps);
    CHECK(transport.exhausted());

    const HttpRequest& find = transport.sent.at(1);
    STRCMP_EQUAL("http://nova:8774", find.origin.c_str());
    STRCMP_EQUAL("/v2.1/servers/detail", find.path.c_str());
    STRCMP_EQUAL("tags=burst-cluster%3Dburst%2Cburst-id%3Dsite-a%2Cburst-node%3Dc1&limit=2", find.query.c_str());
    STRCMP_EQUAL("T1", find.header("X-Auth-Token").c_str());
    STRCMP_EQUAL("compute 2.79", find.header("OpenStack-API-Version").c_str());

    const HttpRequest& create = transport.sent.at(2);
    STRCMP_EQUAL("POST", create.method.c_str());
    STRCMP_EQUAL("/v2.1/servers", create.path.c_str());
    STRCMP_EQUAL("application/json", create.header("Content-Type").c_str());
    STRCMP_EQUAL(R"({"server":{"name":"c1","flavorRef":"m1.small","imageRef":"img-1","networks":"none",)"
                 R"("min_count":1,"max_count":1,"metadata":{"burst-cluster":"burst","burst-node":"c1",)"
                 R"("burst-id":"site-a","burst-token":"tok-c1-1"},)"
                 R"("tags":["burst-cluster=burst","burst-id=site-a","burst-node=c1"]}})",
                 create.body.c_str());
}

TEST(OpenStackProvider, LaunchAdoptsAServerWithTheSameTokenInsteadOfCreatingAnother)
{
    transport.answer(200, "{\"servers\": [" + server("old", "ACTIVE", "", "tok-other") + ", " +
                              server("s-9", "ACTIVE", "", "tok-c1-1") + "]}")
        .answer(200, "{\"server\": " + server("s-9", "ACTIVE", "", "tok-c1-1") + "}");
    const auto results = provider->launch({request()});
    CHECK(!results[0].error);
    STRCMP_EQUAL("s-9", results[0].provider_id.c_str());
    for (const auto& r : transport.sent)
        CHECK(r.method != "POST" || r.path == "/v3/auth/tokens");
}

TEST(OpenStackProvider, NoValidHostIsCapacityAndTheFailedServerIsDeleted)
{
    transport.answer(200, R"({"servers": []})")
        .answer(202, R"({"server": {"id": "s-1"}})")
        .answer(200, "{\"server\": " + server("s-1", "ERROR", "", "tok-c1-1",
                                              R"(, "fault": {"code": 500, "message": "No valid host was found. "})") +
                         "}")
        .answer(204, "");
    const auto results = provider->launch({request()});
    CHECK(results[0].error.kind == ProviderErrorKind::Capacity);
    CHECK(has(results[0].error.message, "No valid host was found"));
    STRCMP_EQUAL("", results[0].provider_id.c_str());
    STRCMP_EQUAL("DELETE", transport.sent.back().method.c_str());
    STRCMP_EQUAL("/v2.1/servers/s-1", transport.sent.back().path.c_str());
}

TEST(OpenStackProvider, QuotaRefusalIsQuota)
{
    transport.answer(200, R"({"servers": []})")
        .answer(403, R"({"forbidden": {"code": 403, "message": "Quota exceeded for instances: Requested 1, but already used 3 of 3 instances"}})");
    const auto results = provider->launch({request()});
    CHECK(results[0].error.kind == ProviderErrorKind::Quota);
    CHECK(!has(results[0].error.message, "pw-secret"));
}

TEST(OpenStackProvider, ExpiredTokenIsRenewedOnceThenAnAuthError)
{
    transport.answer(401, "{}")
        .answer(201, kAuth, {{"X-Subject-Token", "T2"}})
        .answer(200, R"({"servers": []})");
    CHECK(!provider->list({"burst", "", "site-a"}).error);
    STRCMP_EQUAL("T2", transport.sent.back().header("X-Auth-Token").c_str());

    transport.answer(401, "{}").answer(201, kAuth, {{"X-Subject-Token", "T3"}}).answer(401, "{}");
    const auto l = provider->list({"burst", "", "site-a"});
    CHECK(l.error.kind == ProviderErrorKind::Auth);
    CHECK(transport.exhausted());
}

TEST(OpenStackProvider, ListFollowsPagesAndReportsErrorServers)
{
    transport
        .answer(200, "{\"servers\": [" + server("a", "ACTIVE", "", "t") + ", " + server("b", "BUILD", "spawning", "t") +
                         R"(], "servers_links": [{"rel": "next", "href": "http://nova:8774/v2.1/servers/detail?marker=b"}]})")
        .answer(200, provider_fixture("openstack_v1.1/_servers_detail_ERROR_STATE.json"));
    const auto l = provider->list({"burst", "", "site-a"});
    CHECK(!l.error);
    LONGS_EQUAL(3, l.instances.size());
    STRCMP_EQUAL("c1", l.instances[0].node.c_str());
    STRCMP_EQUAL("10.0.0.5", l.instances[0].address.c_str());
    STRCMP_EQUAL("tags=burst-cluster%3Dburst%2Cburst-id%3Dsite-a&limit=2&marker=b", transport.sent.back().query.c_str());
    const auto& err = l.instances[2];
    STRCMP_EQUAL("test_vm", err.node.c_str()); // no burst-node metadata: the server name
    STRCMP_EQUAL("ERROR", err.state.c_str());
    CHECK(err.error.kind == ProviderErrorKind::Transient);
    CHECK(has(err.error.message, "HTTP 500"));
}

TEST(OpenStackProvider, ListFetchesTheFaultTheListViewLeavesOut)
{
    transport.answer(200, "{\"servers\": [" + server("e1", "ERROR", "", "t") + "]}")
        .answer(200, "{\"server\": " + server("e1", "ERROR", "", "t",
                                              R"(, "fault": {"code": 500, "message": "No valid host was found. "})") +
                         "}");
    const auto l = provider->list({"burst", "", "site-a"});
    LONGS_EQUAL(1, l.instances.size());
    CHECK(l.instances[0].error.kind == ProviderErrorKind::Capacity);
    STRCMP_EQUAL("/v2.1/servers/e1", transport.sent.back().path.c_str());
}

TEST(OpenStackProvider, SchedulerWaitRidesOutATransientErrorAndStopsAtTheDeadline)
{
    transport.answer(200, R"({"servers": []})")
        .answer(202, R"({"server": {"id": "s-1"}})")
        .answer(500, R"({"computeFault": {"code": 500, "message": "Unexpected API Error."}})")
        .answer(200, "{\"server\": " + server("s-1", "BUILD", "scheduling", "tok-c1-1") + "}")
        .answer(200, "{\"server\": " + server("s-1", "BUILD", "scheduling", "tok-c1-1") + "}")
        .answer(200, "{\"server\": " + server("s-1", "BUILD", "scheduling", "tok-c1-1") + "}")
        .answer(200, "{\"server\": " + server("s-1", "BUILD", "scheduling", "tok-c1-1") + "}")
        .answer(200, "{\"server\": " + server("s-1", "BUILD", "scheduling", "tok-c1-1") + "}");
    const auto results = provider->launch({request()});
    CHECK(!results[0].error); // still scheduling at the deadline: launched, list() follows it
    STRCMP_EQUAL("s-1", results[0].provider_id.c_str());
    LONGS_EQUAL(5, sleeps); // every 2 s for 10 s
    CHECK(transport.exhausted());
}

TEST(OpenStackProvider, ListSkipsDeletedServersAndRejectsMalformedPages)
{
    transport.answer(200, "{\"servers\": [" + server("a", "ACTIVE", "deleting", "t") + "]}");
    LONGS_EQUAL(0, provider->list({"burst", "", "site-a"}).instances.size());
    transport.answer(200, R"({"servers": [{"id": "x"}]})");
    const auto l = provider->list({"burst", "", "site-a"});
    CHECK(l.error.kind == ProviderErrorKind::Transient);
    CHECK(has(l.error.message, "servers[0]: id and status must be non-empty strings"));
}

TEST(OpenStackProvider, TerminateTreatsNotFoundAsDone)
{
    transport.answer(204, "")
        .answer(404, R"({"itemNotFound": {"code": 404, "message": "Instance gone could not be found."}})")
        .answer(409, R"({"conflictingRequest": {"code": 409, "message": "Cannot 'delete' instance busy while it is in task_state spawning"}})");
    const auto errors = provider->terminate({"ok", "gone", "busy", "../etc"});
    LONGS_EQUAL(2, errors.size());
    CHECK(errors.at("busy").kind == ProviderErrorKind::Transient);
    CHECK(errors.at("../etc").kind == ProviderErrorKind::Invalid);
    STRCMP_EQUAL("/v2.1/servers/ok", transport.sent.at(1).path.c_str());
}

TEST(OpenStackProvider, ARequestThatCannotBeTaggedIsInvalidWithoutAnyCall)
{
    auto r = request();
    r.tags.cluster = "a/b";
    const auto results = provider->launch({r});
    CHECK(results[0].error.kind == ProviderErrorKind::Invalid);
    LONGS_EQUAL(0, transport.sent.size());
}

TEST(OpenStackProvider, TheServerIsCreatedInTheRequestedOrFirstConfiguredAvailabilityZone)
{
    OpenStackSettings s = settings;
    LaunchRequest r = request();
    CHECK(create_server_body(r, s).find("availability_zone") == std::string::npos);
    s.zones = {"az1", "az2"};
    CHECK(has(create_server_body(r, s), R"("availability_zone":"az1")"));
    r.zone = "az2";
    CHECK(has(create_server_body(r, s), R"("availability_zone":"az2")"));
}

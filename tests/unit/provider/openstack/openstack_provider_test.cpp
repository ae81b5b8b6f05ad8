#include "provider/openstack/openstack_provider.hpp"

#include "../aws/fixture.hpp"
#include "../http/gathering_transport.hpp"
#include "provider/cloud/parallel_for.hpp"
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
        settings.batch_size = 100;
        rebuild();
        transport.answer(201, kAuth, {{"X-Subject-Token", "T1"}});
    }
    static OpenStackCredentials credentials()
    {
        return parse_openstack_credentials("AuthUrl=http://ks:5000/v3\nUsername=demo\nUserDomainName=Default\n"
                                           "Password=pw-secret\nProjectName=demo\nProjectDomainName=Default\n",
                                           "creds");
    }
    // After a test changes settings.
    void rebuild()
    {
        provider = std::make_unique<OpenStackProvider>(transport, credentials(), settings, clock, [this](Seconds s) {
            ++sleeps;
            clock.advance(s);
        });
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
    STRCMP_EQUAL("", err.node.c_str()); // no burst-node metadata: a batch's server, known by its id
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
    settings.parallel_deletes = 1; // the queued answers come in order
    rebuild();
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

namespace {

std::string batch_server(const std::string& id, const std::string& name, const std::string& status,
                         const std::string& task_state, const NovaBatch& batch)
{
    const std::string& token = batch.token;
    return R"({"id": ")" + id + R"(", "name": ")" + name + R"(", "status": ")" + status +
           R"(", "OS-EXT-STS:task_state": )" + (task_state.empty() ? "null" : "\"" + task_state + "\"") +
           R"(, "addresses": {"net": [{"version": 4, "addr": "10.0.0.)" + id.substr(2) +
           R"(", "OS-EXT-IPS:type": "fixed"}]}, "metadata": {"burst-token": ")" + token + R"(", "burst-nodes": ")" +
           batch.nodes + R"("}, "tags": []})";
}

std::vector<LaunchRequest> batch_requests(std::size_t n, bool all_or_nothing)
{
    std::vector<LaunchRequest> out;
    for (std::size_t i = 1; i <= n; ++i) {
        LaunchRequest r = request();
        r.node = "c" + std::to_string(i);
        r.idempotency_token = "tok-c" + std::to_string(i);
        r.tags.node = r.node;
        r.all_or_nothing = all_or_nothing;
        out.push_back(r);
    }
    return out;
}

} // namespace

TEST(OpenStackProvider, SeveralNodesAreOnePostAndTheirServersAreMappedBackByTheIndexNovaNamesThemWith)
{
    const auto requests = batch_requests(3, false);
    const NovaBatch batch = nova_batch(requests);
    const std::string page = "{\"servers\": [" + batch_server("s-3", batch.name + "-2", "BUILD", "scheduling", batch) +
                             ", " + batch_server("s-5", batch.name + "-3", "BUILD", "spawning", batch) + "]," +
                             R"( "servers_links": [{"rel": "next", "href": "x"}]})";
    transport.answer(200, R"({"servers": []})")
        .answer(202, R"({"server": {"id": "s-5"}})")
        .answer(200, page)
        .answer(200, "{\"servers\": [" + batch_server("s-7", batch.name + "-1", "BUILD", "spawning", batch) + "]}")
        .answer(200, "{\"servers\": [" + batch_server("s-3", batch.name + "-2", "BUILD", "spawning", batch) + ", " +
                         batch_server("s-5", batch.name + "-3", "ACTIVE", "", batch) + "]," +
                         R"( "servers_links": [{"rel": "next", "href": "x"}]})")
        .answer(200, "{\"servers\": [" + batch_server("s-7", batch.name + "-1", "ACTIVE", "", batch) + "]}");
    const auto results = provider->launch(requests);
    LONGS_EQUAL(3, results.size());
    const char* ids[] = {"s-7", "s-3", "s-5"};
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK(!results[i].error);
        STRCMP_EQUAL(requests[i].node.c_str(), results[i].node.c_str());
        STRCMP_EQUAL(ids[i], results[i].provider_id.c_str());
    }
    STRCMP_EQUAL("10.0.0.7", results[0].address.c_str());
    LONGS_EQUAL(1, sleeps); // one poll interval while s-3 was being scheduled
    CHECK(transport.exhausted());

    int posts = 0;
    for (const auto& r : transport.sent) {
        if (r.method != "POST" || r.path != "/v2.1/servers")
            continue;
        ++posts;
        CHECK(has(r.body, "\"name\":\"" + batch.name + "\""));
        CHECK(has(r.body, "\"min_count\":1,\"max_count\":3"));
        CHECK(has(r.body, "\"burst-token\":\"" + batch.token + "\""));
        CHECK(has(r.body, "\"" + batch.tag + "\""));
        CHECK(has(r.body, "\"burst-nodes\":\"c[1-3]\""));
        CHECK(!has(r.body, "burst-node\""));
    }
    LONGS_EQUAL(1, posts);
    CHECK(has(transport.sent[1].query, "tags=burst-cluster%3Dburst%2Cburst-id%3Dsite-a%2Cburst-batch%3D"));
}

TEST(OpenStackProvider, OneJobsNodesAskForAllOfThemAsTheMinimum)
{
    transport.answer(200, R"({"servers": []})").answer(403, R"({"forbidden": {"code": 403, "message": "Quota exceeded for instances: Requested 4, but already used 0 of 3 instances"}})");
    const auto results = provider->launch(batch_requests(4, true));
    for (const auto& r : results)
        CHECK(r.error.kind == ProviderErrorKind::Quota);
    CHECK(has(transport.sent[2].body, "\"min_count\":4,\"max_count\":4"));
}

TEST(OpenStackProvider, ABatchCutShortByTheQuotaIsAQuotaErrorForTheNodesLeftOver)
{
    const auto requests = batch_requests(2, false);
    const NovaBatch batch = nova_batch(requests);
    // Nova's quota left room for one server: it names it without a suffix.
    transport.answer(200, R"({"servers": []})")
        .answer(202, R"({"server": {"id": "s-1"}})")
        .answer(200, "{\"servers\": [" + batch_server("s-1", batch.name, "ACTIVE", "", batch) + "]}");
    const auto results = provider->launch(requests);
    CHECK(!results[0].error);
    STRCMP_EQUAL("s-1", results[0].provider_id.c_str());
    CHECK(results[1].error.kind == ProviderErrorKind::Quota);
    CHECK(has(results[1].error.message, "no server for c2"));
}

TEST(OpenStackProvider, ARelaunchedBatchAdoptsItsServersAndABatchNovaCannotPlaceIsCapacityAndDeleted)
{
    const auto requests = batch_requests(2, true);
    const NovaBatch batch = nova_batch(requests);
    const std::string failed = R"(, "fault": {"code": 500, "message": "No valid host was found. "})";
    auto error_server = [&](const std::string& id, int i) {
        std::string s = batch_server(id, batch.name + "-" + std::to_string(i), "ERROR", "", batch);
        return s.substr(0, s.size() - 1) + failed + "}";
    };
    const std::string listed = "{\"servers\": [" + error_server("s-1", 1) + ", " + error_server("s-2", 2) + "]}";
    transport.answer(200, listed).answer(200, listed).answer(204, "").answer(204, "");
    const auto results = provider->launch(requests);
    for (const auto& r : results) {
        CHECK(r.error.kind == ProviderErrorKind::Capacity);
        STRCMP_EQUAL("", r.provider_id.c_str());
    }
    int deletes = 0;
    for (const auto& r : transport.sent) {
        CHECK(r.method != "POST" || r.path == "/v3/auth/tokens");
        deletes += r.method == "DELETE";
    }
    LONGS_EQUAL(2, deletes);
}

TEST(OpenStackProvider, ABatchTokenDependsOnEveryNodesTokenAndAServersNodeOnItsPlaceInTheBatch)
{
    auto a = batch_requests(2, false);
    const NovaBatch one = nova_batch(a);
    a[1].idempotency_token = "tok-c2-2";
    const NovaBatch other = nova_batch(a);
    CHECK(one.token != other.token);
    CHECK(one.tag.size() <= 60);
    STRCMP_EQUAL("c[1-2]", one.nodes.c_str());
    LONGS_EQUAL(0, batch_index(one.name, one.name, 2));
    LONGS_EQUAL(1, batch_index(one.name, one.name + "-2", 2));
    LONGS_EQUAL(-1, batch_index(one.name, one.name + "-3", 2));
    LONGS_EQUAL(-1, batch_index(one.name, one.name + "-0", 2));
    LONGS_EQUAL(-1, batch_index(one.name, one.name + "-01", 2));
    LONGS_EQUAL(-1, batch_index(one.name, one.name + "-1x", 2));
    LONGS_EQUAL(-1, batch_index(one.name, other.name + "-1", 2));

    NovaServer s;
    s.name = one.name + "-2";
    s.metadata = {{kMetaToken, one.token}, {kMetaNodes, one.nodes}};
    STRCMP_EQUAL("c2", server_node(s).c_str());
    s.name = other.name + "-2";
    STRCMP_EQUAL("", server_node(s).c_str());
    s.metadata[kMetaNode] = "c9";
    STRCMP_EQUAL("c9", server_node(s).c_str());

    // Project members can write metadata: nothing they write maps a server wrongly or breaks a list.
    LONGS_EQUAL(-1, batch_index(one.name, one.name + "-+2", 2));
    LONGS_EQUAL(-1, batch_index(one.name, one.name + "- 2", 2));
    LONGS_EQUAL(-1, batch_index(one.name, one.name, 0));
    NovaServer forged;
    forged.name = one.name;
    forged.metadata = {{kMetaToken, one.token}, {kMetaNodes, ""}};
    STRCMP_EQUAL("", server_node(forged).c_str());
    forged.metadata[kMetaNodes] = "a[0-1048575]b[0-1048575]";
    STRCMP_EQUAL("", server_node(forged).c_str());
    forged.metadata[kMetaNodes] = "c[1-2000]";
    STRCMP_EQUAL("", server_node(forged).c_str());
}

TEST(OpenStackProvider, ServersAreMappedToNodesInHostlistOrderWhateverTheRequestOrder)
{
    auto requests = batch_requests(3, false);
    std::swap(requests[0], requests[2]); // c3, c2, c1
    const NovaBatch batch = nova_batch(requests);
    STRCMP_EQUAL("c[1-3]", batch.nodes.c_str());
    transport.answer(200, R"({"servers": []})")
        .answer(202, R"({"server": {"id": "s-1"}})")
        .answer(200, "{\"servers\": [" + batch_server("s-1", batch.name + "-1", "ACTIVE", "", batch) + ", " +
                         batch_server("s-3", batch.name + "-3", "ACTIVE", "", batch) + "]," +
                         R"( "servers_links": [{"rel": "next", "href": "x"}]})")
        .answer(200, "{\"servers\": [" + batch_server("s-2", batch.name + "-2", "ACTIVE", "", batch) + "]}");
    const auto results = provider->launch(requests);
    STRCMP_EQUAL("c3", results[0].node.c_str());
    STRCMP_EQUAL("s-3", results[0].provider_id.c_str());
    STRCMP_EQUAL("s-2", results[1].provider_id.c_str());
    STRCMP_EQUAL("s-1", results[2].provider_id.c_str());
}

TEST(OpenStackProvider, NodesWhoseHostlistIsTooLongForOneMetadataValueAreSplitIntoBatchesThatFit)
{
    std::vector<LaunchRequest> requests;
    for (int i = 0; i < 24; ++i) {
        LaunchRequest r = request();
        r.node = "node-of-rack-" + std::string(1, static_cast<char>('a' + i % 26)) + std::to_string(i); // no common form
        r.idempotency_token = "t" + std::to_string(i);
        requests.push_back(r);
    }
    CHECK(nova_batch(requests).nodes.empty());
    const std::vector<LaunchRequest> half(requests.begin(), requests.begin() + 12);
    const NovaBatch first = nova_batch(half);
    CHECK(!first.nodes.empty());
    CHECK(first.nodes.size() <= 255);
    LONGS_EQUAL(12, first.order.size());
}

TEST(OpenStackProvider, TerminateDeletesParallelDeletesServersAtOnce)
{
    settings.parallel_deletes = 3;
    GatheringTransport nova(
        [](const HttpRequest& r) {
            HttpResponse answer;
            answer.status = r.method == "DELETE" ? (r.path == "/v2.1/servers/gone" ? 404 : 204) : 201;
            if (r.method == "POST") {
                answer.body = kAuth;
                answer.headers = {{"X-Subject-Token", "T1"}};
            }
            return answer;
        },
        [](const HttpRequest& r) { return r.method == "DELETE"; }, 3, std::chrono::seconds(5));
    OpenStackProvider parallel(nova, credentials(), settings, clock, [](Seconds) {});
    const auto errors = parallel.terminate({"a", "b", "gone", "c", "d", "e", "f"});
    CHECK(errors.empty());
    LONGS_EQUAL(7, nova.picked);
    LONGS_EQUAL(3, nova.most_in_flight);
}

TEST(OpenStackProvider, OneLaunchSendsBatchesOfBatchSizeNodes)
{
    settings.batch_size = 2;
    rebuild();
    const auto requests = batch_requests(3, false);
    const std::vector<LaunchRequest> first_two(requests.begin(), requests.begin() + 2);
    const NovaBatch batch = nova_batch(first_two);
    transport.answer(200, R"({"servers": []})")
        .answer(202, R"({"server": {"id": "s-1"}})")
        .answer(200, "{\"servers\": [" + batch_server("s-1", batch.name + "-1", "ACTIVE", "", batch) + ", " +
                         batch_server("s-2", batch.name + "-2", "ACTIVE", "", batch) + "]}")
        .answer(200, R"({"servers": []})")
        .answer(202, R"({"server": {"id": "s-3"}})")
        .answer(200, "{\"server\": " + server("s-3", "ACTIVE", "", "tok-c3") + "}");
    const auto results = provider->launch(requests);
    STRCMP_EQUAL("s-1", results[0].provider_id.c_str());
    STRCMP_EQUAL("s-2", results[1].provider_id.c_str());
    STRCMP_EQUAL("s-3", results[2].provider_id.c_str());
    CHECK(has(transport.sent[2].body, "\"max_count\":2"));
    CHECK(has(transport.sent[5].body, "\"name\":\"c3\""));
    CHECK(transport.exhausted());
}

TEST(OpenStackProvider, AnExceptionInParallelWorkStopsItAndReachesTheCaller)
{
    std::atomic<int> done{0};
    CHECK_THROWS(std::runtime_error, parallel_for(100, 4, [&](std::size_t i) {
                     if (i == 10)
                         throw std::runtime_error("boom");
                     ++done;
                 }));
    CHECK(done < 100);
}

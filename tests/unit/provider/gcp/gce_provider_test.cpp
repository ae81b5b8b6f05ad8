#include "provider/gcp/gce_provider.hpp"
#include "provider/gcp/gce_labels.hpp"
#include "provider/gcp/request_uuid.hpp"

#include "../aws/fixture.hpp"
#include "common/json_ref.hpp"
#include "common/json_text.hpp"
#include "../http/gathering_transport.hpp"
#include "../http/queued_transport.hpp"

#include <memory>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

constexpr const char* kSecretToken = "ya29.SECRET-ACCESS-TOKEN";

class FixedTokenSource final : public BearerTokenSource {
public:
    explicit FixedTokenSource(int& invalidations) : invalidations_(invalidations) {}
    std::string token(ProviderError& error) override
    {
        error = {};
        return kSecretToken;
    }
    void invalidate() override { ++invalidations_; }

private:
    int& invalidations_;
};

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

JsonRef parse(const std::string& text)
{
    json_error_t err;
    JsonRef j(json_loads(text.c_str(), 0, &err));
    if (!j)
        FAIL(("not JSON: " + text).c_str());
    return j;
}

std::string str(const json_t* j, const char* path0, const char* path1 = nullptr, const char* path2 = nullptr)
{
    const json_t* v = json_object_get(j, path0);
    if (path1)
        v = json_object_get(v, path1);
    if (path2)
        v = json_object_get(v, path2);
    return json_is_string(v) ? json_string_value(v) : "<missing>";
}

std::string operation(const std::string& name, const std::string& status, const std::string& error_codes = "")
{
    std::string body = R"({"kind": "compute#operation", "name": ")" + name + R"(", "status": ")" + status + "\"";
    if (!error_codes.empty())
        body += R"(, "error": {"errors": [{"code": ")" + error_codes + R"(", "message": "detail"}]})";
    return body + "}";
}

// A recorded instance with our labels (the fixtures carry none).
std::string labelled(const std::string& fixture_json, const std::string& name, const std::string& node_label)
{
    JsonRef j = parse(fixture_json);
    json_object_set_new(j.get(), "name", json_string(name.c_str()));
    json_t* labels = json_pack("{s:s, s:s}", kGceClusterLabel, "_43luster_20a", kGceOwnerLabel, "site_2e1");
    if (!node_label.empty())
        json_object_set_new(labels, kGceNodeLabel, json_string(node_label.c_str()));
    json_object_set_new(j.get(), "labels", labels);
    return json_text(j.get());
}

LaunchRequest request(const std::string& node, bool spot = false)
{
    LaunchRequest r;
    r.node = node;
    r.instance_type = "n2-standard-4";
    r.idempotency_token = "tok-" + node;
    r.tags = {"Cluster a", node, "site.1"};
    r.spot = spot;
    return r;
}

const char* kZone = "/compute/v1/projects/proj/zones/us-central1-a";

} // namespace

TEST_GROUP(GceProvider)
{
    QueuedTransport transport;
    ManualClock clock{1000};
    GcpProviderConfig config;
    int invalidations = 0;
    int sleeps = 0;

    void setup() override
    {
        config.project = "proj";
        config.zones = {"us-central1-a"};
        config.instance_template = "global/instanceTemplates/burst";
        config.operation_wait = 10;
        config.poll_interval = 2;
    }
    std::unique_ptr<GceProvider> provider()
    {
        return std::make_unique<GceProvider>(transport, std::make_unique<FixedTokenSource>(invalidations), config,
                                             clock, [this](Seconds s) {
                                                 ++sleeps;
                                                 clock.advance(s);
                                             });
    }
    void check_call(std::size_t i, const std::string& method, const std::string& path)
    {
        const HttpRequest& r = transport.sent.at(i);
        STRCMP_EQUAL(method.c_str(), r.method.c_str());
        STRCMP_EQUAL("https://compute.googleapis.com", r.origin.c_str());
        STRCMP_EQUAL(path.c_str(), r.path.c_str());
        STRCMP_EQUAL((std::string("Bearer ") + kSecretToken).c_str(), r.header("Authorization").c_str());
        STRCMP_EQUAL("application/json", r.header("Accept").c_str());
    }
};

TEST(GceProvider, InsertFromTemplatePollsTheZonalOperation)
{
    transport.answer(200, provider_fixture("gce/zones_us-central1-a_instances_post.json"))
        .answer(200, operation("operation-zones_us-central1-a_instances_post", "RUNNING"))
        .answer(200, provider_fixture("gce/operations_operation_zones_us-central1-a_instances_post.json"))
        .answer(200, provider_fixture("gce/zones_us-central1-a_instances_node-name.json"));
    const auto results = provider()->launch({request("cloud-1")});

    LONGS_EQUAL(1, results.size());
    CHECK_TEXT(!results[0].error, results[0].error.message.c_str());
    STRCMP_EQUAL("cloud-1", results[0].node.c_str());
    STRCMP_EQUAL("projects/proj/zones/us-central1-a/instances/cloud-1", results[0].provider_id.c_str());
    STRCMP_EQUAL("10.240.72.75", results[0].address.c_str());

    LONGS_EQUAL(4, transport.sent.size());
    check_call(0, "POST", std::string(kZone) + "/instances");
    const HttpRequest& insert = transport.sent[0];
    STRCMP_EQUAL(("requestId=" + request_uuid("tok-cloud-1") +
                  "&sourceInstanceTemplate=global%2FinstanceTemplates%2Fburst").c_str(),
                 insert.query.c_str());
    STRCMP_EQUAL("application/json", insert.header("Content-Type").c_str());
    JsonRef body = parse(insert.body);
    STRCMP_EQUAL("cloud-1", str(body.get(), "name").c_str());
    STRCMP_EQUAL("zones/us-central1-a/machineTypes/n2-standard-4", str(body.get(), "machineType").c_str());
    STRCMP_EQUAL("_43luster_20a", str(body.get(), "labels", kGceClusterLabel).c_str());
    STRCMP_EQUAL("cloud-1", str(body.get(), "labels", kGceNodeLabel).c_str());
    STRCMP_EQUAL("site_2e1", str(body.get(), "labels", kGceOwnerLabel).c_str());
    CHECK(!json_object_get(body.get(), "disks")); // the template has them
    CHECK(!json_object_get(body.get(), "scheduling"));
    check_call(1, "GET", std::string(kZone) + "/operations/operation-zones_us-central1-a_instances_post");
    check_call(2, "GET", std::string(kZone) + "/operations/operation-zones_us-central1-a_instances_post");
    check_call(3, "GET", std::string(kZone) + "/instances/cloud-1");
    LONGS_EQUAL(2, sleeps);
}

TEST(GceProvider, InsertWithoutTemplateCarriesDiskNetworkAndSpot)
{
    config.instance_template.clear();
    config.image = "projects/debian-cloud/global/images/family/debian-12";
    config.network = "global/networks/default";
    config.subnetwork = "regions/us-central1/subnetworks/hpc";
    transport.answer(200, operation("op-1", "DONE", "ZONE_RESOURCE_POOL_EXHAUSTED"));
    const auto results = provider()->launch({request("cloud-1", true)});

    CHECK(results[0].error.kind == ProviderErrorKind::Capacity);
    CHECK(has(results[0].error.message, "ZONE_RESOURCE_POOL_EXHAUSTED"));
    STRCMP_EQUAL("", results[0].provider_id.c_str());
    const HttpRequest& insert = transport.sent.at(0);
    STRCMP_EQUAL(("requestId=" + request_uuid("tok-cloud-1")).c_str(), insert.query.c_str());
    JsonRef body = parse(insert.body);
    STRCMP_EQUAL("SPOT", str(body.get(), "scheduling", "provisioningModel").c_str());
    STRCMP_EQUAL("DELETE", str(body.get(), "scheduling", "instanceTerminationAction").c_str());
    const json_t* disk = json_array_get(json_object_get(body.get(), "disks"), 0);
    CHECK(json_is_true(json_object_get(disk, "boot")));
    CHECK(json_is_true(json_object_get(disk, "autoDelete")));
    STRCMP_EQUAL(config.image.c_str(), str(disk, "initializeParams", "sourceImage").c_str());
    const json_t* nic = json_array_get(json_object_get(body.get(), "networkInterfaces"), 0);
    STRCMP_EQUAL("global/networks/default", str(nic, "network").c_str());
    STRCMP_EQUAL("regions/us-central1/subnetworks/hpc", str(nic, "subnetwork").c_str());
    LONGS_EQUAL(0, sleeps);
}

TEST(GceProvider, QuotaAndThrottlingAreClassified)
{
    transport.answer(200, operation("op-1", "PENDING")).answer(200, operation("op-1", "DONE", "QUOTA_EXCEEDED"));
    CHECK(provider()->launch({request("cloud-1")})[0].error.kind == ProviderErrorKind::Quota);
    transport.answer(429, R"({"error": {"code": 429, "message": "Too Many Requests"}})", {{"Retry-After", "12"}});
    const auto throttled = provider()->launch({request("cloud-2")})[0].error;
    CHECK(throttled.kind == ProviderErrorKind::Throttled);
    DOUBLES_EQUAL(12, throttled.retry_after, 0);
    transport.answer(400, R"({"error": {"code": 400, "message": "Invalid value for field 'resource.machineType'",
                              "errors": [{"reason": "invalid"}]}})");
    CHECK(provider()->launch({request("cloud-3")})[0].error.kind == ProviderErrorKind::Invalid);
    transport.fail("Connection timed out");
    CHECK(provider()->launch({request("cloud-4")})[0].error.kind == ProviderErrorKind::Transient);
    CHECK(transport.exhausted());
}

TEST(GceProvider, OperationStillRunningAfterTheWaitIsNotAnError)
{
    config.operation_wait = 4;
    transport.answer(200, operation("op-1", "PENDING"))
        .answer(200, operation("op-1", "RUNNING"))
        .answer(200, operation("op-1", "RUNNING"));
    const auto r = provider()->launch({request("cloud-1")})[0];
    CHECK(!r.error);
    STRCMP_EQUAL("projects/proj/zones/us-central1-a/instances/cloud-1", r.provider_id.c_str());
    LONGS_EQUAL(2, sleeps);
}

TEST(GceProvider, ConflictAdoptsOurOwnInstanceOnly)
{
    const std::string exists = R"({"error": {"code": 409, "message": "already exists", "errors": [{"reason": "alreadyExists"}]}})";
    const std::string ours =
        labelled(provider_fixture("gce/zones_us-central1-a_instances_node-name.json"), "cloud-1", "cloud-1");
    transport.answer(409, exists).answer(200, ours);
    const auto adopted = provider()->launch({request("cloud-1")})[0];
    CHECK_TEXT(!adopted.error, adopted.error.message.c_str());
    STRCMP_EQUAL("projects/proj/zones/us-central1-a/instances/cloud-1", adopted.provider_id.c_str());
    STRCMP_EQUAL("10.240.72.75", adopted.address.c_str());
    check_call(1, "GET", std::string(kZone) + "/instances/cloud-1");

    transport.answer(409, exists).answer(200, provider_fixture("gce/zones_us-central1-a_instances_node-name.json"));
    const auto foreign = provider()->launch({request("cloud-1")})[0];
    CHECK(foreign.error.kind == ProviderErrorKind::Invalid);
    CHECK(has(foreign.error.message, "already exists"));
    STRCMP_EQUAL("", foreign.provider_id.c_str());
}

TEST(GceProvider, BulkInsertNamesEveryNodeAndReportsPartialSuccess)
{
    const std::string created =
        R"({"items": [)" +
        labelled(provider_fixture("gce/zones_us-central1-a_instances_node-name.json"), "cloud-1", "") + "]}";
    transport.answer(200, operation("op-bulk", "RUNNING"))
        .answer(200, operation("op-bulk", "DONE", "ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS"))
        .answer(200, created);
    const auto results = provider()->launch({request("cloud-1"), request("Bad_Name"), request("cloud-2")});

    LONGS_EQUAL(3, results.size());
    CHECK_TEXT(!results[0].error, results[0].error.message.c_str());
    STRCMP_EQUAL("projects/proj/zones/us-central1-a/instances/cloud-1", results[0].provider_id.c_str());
    STRCMP_EQUAL("10.240.72.75", results[0].address.c_str());
    CHECK(results[1].error.kind == ProviderErrorKind::Invalid);
    CHECK(has(results[1].error.message, "Bad_Name"));
    CHECK(results[2].error.kind == ProviderErrorKind::Capacity);
    STRCMP_EQUAL("cloud-2", results[2].node.c_str());

    check_call(0, "POST", std::string(kZone) + "/instances/bulkInsert");
    JsonRef body = parse(transport.sent[0].body);
    LONGS_EQUAL(2, json_integer_value(json_object_get(body.get(), "count")));
    LONGS_EQUAL(1, json_integer_value(json_object_get(body.get(), "minCount")));
    const json_t* per = json_object_get(body.get(), "perInstanceProperties");
    LONGS_EQUAL(2, json_object_size(per));
    CHECK(json_object_get(per, "cloud-1") && json_object_get(per, "cloud-2"));
    STRCMP_EQUAL("global/instanceTemplates/burst", str(body.get(), "sourceInstanceTemplate").c_str());
    STRCMP_EQUAL("n2-standard-4", str(body.get(), "instanceProperties", "machineType").c_str());
    STRCMP_EQUAL("site_2e1", str(body.get(), "instanceProperties", "labels", kGceOwnerLabel).c_str());
    CHECK(has(transport.sent[0].query, "requestId="));
    check_call(2, "GET", std::string(kZone) + "/instances");
}

TEST(GceProvider, AJobsNodesAreOneBulkInsertWithMinCountAllOfThem)
{
    transport.answer(200, operation("op-bulk", "DONE", "ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS"))
        .answer(200, R"({"items": []})");
    LaunchRequest a = request("cloud-1"), b = request("cloud-2");
    a.all_or_nothing = b.all_or_nothing = true;
    const auto results = provider()->launch({a, b});
    JsonRef body = parse(transport.sent[0].body);
    LONGS_EQUAL(2, json_integer_value(json_object_get(body.get(), "count")));
    LONGS_EQUAL(2, json_integer_value(json_object_get(body.get(), "minCount")));
    CHECK(results[0].error.kind == ProviderErrorKind::Capacity);
    CHECK(results[1].error.kind == ProviderErrorKind::Capacity);
}

TEST(GceProvider, BulkInsertDoneWithoutErrorButMissingNodeIsCapacity)
{
    transport.answer(200, operation("op-bulk", "DONE")).answer(200, R"({"items": []})");
    const auto results = provider()->launch({request("cloud-1"), request("cloud-2")});
    CHECK(results[0].error.kind == ProviderErrorKind::Capacity);
    CHECK(results[1].error.kind == ProviderErrorKind::Capacity);
}

TEST(GceProvider, MixedRequestsFallBackToOneInsertEach)
{
    transport.answer(200, operation("op-1", "DONE")).answer(404, "").answer(200, operation("op-2", "DONE")).answer(404, "");
    const auto results = provider()->launch({request("cloud-1"), request("cloud-2", true)});
    CHECK(!results[0].error && !results[1].error);
    STRCMP_EQUAL("", results[0].address.c_str());
    check_call(0, "POST", std::string(kZone) + "/instances");
    check_call(2, "POST", std::string(kZone) + "/instances");
}

TEST(GceProvider, ListFiltersByLabelsAndFollowsPageTokens)
{
    JsonRef page1 = parse(provider_fixture("gce/zones_us-central1-a_instances.json"));
    json_t* items = json_object_get(page1.get(), "items");
    json_t* first = json_array_get(items, 0);
    json_object_set_new(first, "labels",
                        json_pack("{s:s, s:s, s:s}", kGceClusterLabel, "_43luster_20a", kGceOwnerLabel, "site_2e1",
                                  kGceNodeLabel, "_4eode_2e1"));
    json_array_append_new(items, json_pack("{s:s, s:s, s:{s:s}}", "name", "foreign", "status", "RUNNING", "labels",
                                           kGceClusterLabel, "other"));
    json_object_set_new(page1.get(), "nextPageToken", json_string("p2"));
    const std::string page2 =
        R"({"items": [{"name": "cloud-9", "status": "TERMINATED", "scheduling": {"provisioningModel": "SPOT"},
            "labels": {"slurm-burst-cluster": "_43luster_20a", "slurm-burst-id": "site_2e1", "slurm-burst-node": "cloud-9"}},
           {"name": "cloud-8", "status": "STOPPING",
            "labels": {"slurm-burst-cluster": "_43luster_20a", "slurm-burst-id": "site_2e1"}}]})";
    transport.answer(200, json_text(page1.get())).answer(200, page2);
    const auto result = provider()->list({"Cluster a", "", "site.1"});

    CHECK_TEXT(!result.error, result.error.message.c_str());
    LONGS_EQUAL(3, result.instances.size());
    STRCMP_EQUAL("projects/proj/zones/us-central1-a/instances/node-name", result.instances[0].provider_id.c_str());
    STRCMP_EQUAL("Node.1", result.instances[0].node.c_str());
    STRCMP_EQUAL("RUNNING", result.instances[0].state.c_str());
    STRCMP_EQUAL("10.240.72.75", result.instances[0].address.c_str());
    CHECK(!result.instances[0].gone);
    STRCMP_EQUAL("cloud-9", result.instances[1].node.c_str());
    CHECK(result.instances[1].gone && result.instances[1].reclaimed);
    STRCMP_EQUAL("cloud-8", result.instances[2].node.c_str()); // no node label: the instance name
    STRCMP_EQUAL("STOPPING", result.instances[2].state.c_str());
    CHECK(!result.instances[2].gone && !result.instances[2].reclaimed);

    check_call(0, "GET", std::string(kZone) + "/instances");
    STRCMP_EQUAL("filter=labels.slurm-burst-cluster%3D%22_43luster_20a%22%20AND%20labels.slurm-burst-id%3D%22site_2e1%22"
                 "&maxResults=500",
                 transport.sent[0].query.c_str());
    CHECK(has(transport.sent[1].query, "&pageToken=p2"));
}

TEST(GceProvider, ListRefusesARepeatingPageToken)
{
    const std::string page = R"({"items": [], "nextPageToken": "same"})";
    transport.answer(200, page).answer(200, page);
    const auto result = provider()->list({"c", "", "id"});
    CHECK(result.error.kind == ProviderErrorKind::Transient);
    CHECK(has(result.error.message, "pagination loop"));
    transport.answer(200, R"({"items": 5})");
    CHECK(provider()->list({"c", "", "id"}).error.kind == ProviderErrorKind::Transient);
}

TEST(GceProvider, TerminateDeletesAndWaitsForTheOperations)
{
    config.parallel_deletes = 1; // the queued answers come in order
    transport.answer(200, provider_fixture("gce/zones_us-central1-a_instances_node-name_delete.json"))
        .answer(404, R"({"error": {"code": 404, "message": "not found"}})")
        .answer(429, "", {{"Retry-After", "5"}})
        .answer(200, provider_fixture("gce/operations_operation_zones_us-central1-a_instances_node-name_delete.json"));
    const std::string base = "projects/proj/zones/us-central1-a/instances/";
    const auto errors =
        provider()->terminate({base + "node-name", base + "gone-1", base + "busy-1", "projects/x/zones/y/instances/z"});

    LONGS_EQUAL(2, errors.size());
    CHECK(errors.at(base + "busy-1").kind == ProviderErrorKind::Throttled);
    DOUBLES_EQUAL(5, errors.at(base + "busy-1").retry_after, 0);
    CHECK(errors.at("projects/x/zones/y/instances/z").kind == ProviderErrorKind::Invalid);
    check_call(0, "DELETE", std::string(kZone) + "/instances/node-name");
    check_call(1, "DELETE", std::string(kZone) + "/instances/gone-1");
    check_call(3, "GET", std::string(kZone) + "/operations/operation-zones_us-central1-a_instances_node-name_delete");
    CHECK(transport.exhausted());
}

TEST(GceProvider, RetriesOnceWithAFreshTokenAndNeverLeaksIt)
{
    const std::string unauthorized = R"({"error": {"code": 401, "message": "Request had invalid authentication credentials.",
                                         "errors": [{"reason": "authError"}]}})";
    transport.answer(401, unauthorized).answer(401, unauthorized);
    const auto r = provider()->launch({request("cloud-1")})[0];
    CHECK(r.error.kind == ProviderErrorKind::Auth);
    LONGS_EQUAL(2, transport.sent.size());
    LONGS_EQUAL(2, invalidations);
    CHECK(!has(r.error.message, kSecretToken));

    transport.answer(401, unauthorized).answer(200, R"({"items": []})");
    const auto listed = provider()->list({"c", "", "id"});
    CHECK(!listed.error);
    transport.answer(403, R"({"error": {"code": 403, "errors": [{"reason": "forbidden"}]}})");
    const auto denied = provider()->terminate({"projects/proj/zones/us-central1-a/instances/a"});
    CHECK(denied.begin()->second.kind == ProviderErrorKind::Auth);
    CHECK(!has(denied.begin()->second.message, kSecretToken));
}

TEST(GceProvider, InvalidNodeNamesAreRefusedBeforeAnyCall)
{
    const auto results = provider()->launch({request("Cloud_1")});
    CHECK(results[0].error.kind == ProviderErrorKind::Invalid);
    LONGS_EQUAL(0, transport.sent.size());
}

TEST(GceProvider, EveryCallGoesToTheZoneOfTheRequestOrOfTheInstance)
{
    config.zones = {"us-central1-a", "europe-west1-b"};
    const char* kOther = "/compute/v1/projects/proj/zones/europe-west1-b";
    auto gce = provider();
    CHECK(gce->zones() == config.zones);
    LaunchRequest r = request("cloud-2");
    r.zone = "europe-west1-b";
    transport.answer(200, operation("op-insert", "DONE"))
        .answer(200, labelled(provider_fixture("gce/zones_us-central1-a_instances_node-name.json"), "cloud-2", ""));
    const auto launched = gce->launch({r});
    CHECK_TEXT(!launched[0].error, launched[0].error.message.c_str());
    STRCMP_EQUAL("projects/proj/zones/europe-west1-b/instances/cloud-2", launched[0].provider_id.c_str());
    check_call(0, "POST", std::string(kOther) + "/instances");
    STRCMP_EQUAL("zones/europe-west1-b/machineTypes/n2-standard-4",
                 str(parse(transport.sent[0].body).get(), "machineType").c_str());
    check_call(1, "GET", std::string(kOther) + "/instances/cloud-2");

    // A capacity error in that zone is the operation's, polled in that zone.
    r.zone = "europe-west1-b";
    r.node = "cloud-3";
    transport.answer(200, operation("op-3", "RUNNING"))
        .answer(200, operation("op-3", "DONE", "ZONE_RESOURCE_POOL_EXHAUSTED"));
    const auto short_of = gce->launch({r});
    CHECK(short_of[0].error.kind == ProviderErrorKind::Capacity);
    check_call(3, "GET", std::string(kOther) + "/operations/op-3");

    // Listing covers every configured zone; ids carry each instance's zone.
    const std::string in_a = R"({"items": [{"name": "cloud-1", "status": "RUNNING",
        "labels": {"slurm-burst-cluster": "_43luster_20a", "slurm-burst-id": "site_2e1"}}]})";
    const std::string in_b = R"({"items": [{"name": "cloud-2", "status": "RUNNING",
        "labels": {"slurm-burst-cluster": "_43luster_20a", "slurm-burst-id": "site_2e1"}}]})";
    transport.answer(200, in_a).answer(200, in_b);
    const auto listed = gce->list({"Cluster a", "", "site.1"});
    CHECK_TEXT(!listed.error, listed.error.message.c_str());
    LONGS_EQUAL(2, listed.instances.size());
    STRCMP_EQUAL("projects/proj/zones/us-central1-a/instances/cloud-1", listed.instances[0].provider_id.c_str());
    STRCMP_EQUAL("projects/proj/zones/europe-west1-b/instances/cloud-2", listed.instances[1].provider_id.c_str());
    check_call(4, "GET", std::string(kZone) + "/instances");
    check_call(5, "GET", std::string(kOther) + "/instances");

    // One zone failing to list fails the whole list: a partial one would look like lost instances.
    transport.answer(200, in_a).answer(503, "");
    const auto partial = gce->list({"Cluster a", "", "site.1"});
    CHECK(partial.error.kind == ProviderErrorKind::Transient);
    CHECK(partial.instances.empty());

    // Delete and its operation go to the instance's own zone.
    transport.answer(200, operation("op-del", "RUNNING")).answer(200, operation("op-del", "DONE"));
    const auto errors = gce->terminate({"projects/proj/zones/europe-west1-b/instances/cloud-2",
                                        "projects/proj/zones/europe-west1-b/disks/cloud-2",
                                        "projects/proj/zones//instances/cloud-2"});
    LONGS_EQUAL(2, errors.size());
    CHECK(errors.at("projects/proj/zones/europe-west1-b/disks/cloud-2").kind == ProviderErrorKind::Invalid);
    check_call(8, "DELETE", std::string(kOther) + "/instances/cloud-2");
    check_call(9, "GET", std::string(kOther) + "/operations/op-del");
    CHECK(transport.exhausted());
}

TEST(GceProvider, ABulkInsertGoesToOneZoneAndARequestWithoutZoneToTheFirst)
{
    config.zones = {"us-central1-a", "europe-west1-b"};
    auto gce = provider();
    LaunchRequest a = request("cloud-1");
    LaunchRequest b = request("cloud-2");
    b.zone = "europe-west1-b";
    // Different zones cannot share one bulkInsert: one insert each.
    transport.answer(200, operation("op-1", "DONE"))
        .answer(404, "")
        .answer(200, operation("op-2", "DONE"))
        .answer(404, "");
    const auto results = gce->launch({a, b});
    STRCMP_EQUAL("projects/proj/zones/us-central1-a/instances/cloud-1", results[0].provider_id.c_str());
    STRCMP_EQUAL("projects/proj/zones/europe-west1-b/instances/cloud-2", results[1].provider_id.c_str());
    check_call(0, "POST", std::string(kZone) + "/instances");
    check_call(2, "POST", "/compute/v1/projects/proj/zones/europe-west1-b/instances");
}

TEST(GceProvider, TerminateDeletesParallelDeletesInstancesAtOnce)
{
    config.parallel_deletes = 4;
    GatheringTransport gce_api(
        [](const HttpRequest& r) {
            HttpResponse answer;
            answer.status = 200;
            answer.body = operation("op-" + r.path.substr(r.path.rfind('/') + 1), r.method == "DELETE" ? "RUNNING" : "DONE");
            return answer;
        },
        [](const HttpRequest& r) { return r.method == "DELETE"; }, 4, std::chrono::seconds(5));
    GceProvider gce(gce_api, std::make_unique<FixedTokenSource>(invalidations), config, clock, [](Seconds) {});
    std::vector<std::string> ids;
    for (int i = 1; i <= 9; ++i)
        ids.push_back("projects/proj/zones/us-central1-a/instances/cloud-" + std::to_string(i));
    CHECK(gce.terminate(ids).empty());
    LONGS_EQUAL(9, gce_api.picked);
    LONGS_EQUAL(4, gce_api.most_in_flight);
}

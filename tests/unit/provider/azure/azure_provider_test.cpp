#include "provider/azure/azure_provider.hpp"

#include "../aws/fixture.hpp"
#include "../http/gathering_transport.hpp"
#include "../http/queued_transport.hpp"
#include "common/json_ref.hpp"
#include "common/json_text.hpp"

#include <chrono>
#include <memory>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

constexpr const char* kSecretToken = "eyJ0eXAi.SECRET-ARM-TOKEN";
constexpr const char* kSub = "99999999-9999-9999-9999-999999999999";
const std::string kVms = "/subscriptions/99999999-9999-9999-9999-999999999999/resourceGroups/000000/providers/"
                         "Microsoft.Compute/virtualMachines";
const std::string kAsync = "https://management.azure.com/subscriptions/99999999-9999-9999-9999-999999999999/"
                           "providers/Microsoft.Compute/locations/eastus/operations/op-1?api-version=2024-03-01";

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

std::string str(const json_t* j, std::initializer_list<const char*> path)
{
    for (const char* p : path)
        j = json_object_get(j, p);
    return json_is_string(j) ? json_string_value(j) : "<missing>";
}

LaunchRequest request(const std::string& node, bool spot = false)
{
    LaunchRequest r;
    r.node = node;
    r.instance_type = "Standard_F8s_v2";
    r.idempotency_token = "tok-" + node;
    r.tags = {"hpc", node, "site-1"};
    r.spot = spot;
    return r;
}

std::string vm_answer(const std::string& node, const std::string& state = "Creating")
{
    return R"({"id": ")" + kVms + "/" + node + R"(", "name": ")" + node +
           R"(", "tags": {"slurm-burst-cluster": "hpc", "slurm-burst-node": ")" + node +
           R"(", "slurm-burst-id": "site-1"}, "properties": {"provisioningState": ")" + state + R"("}})";
}

std::string not_found() { return R"({"error": {"code": "ResourceNotFound", "message": "not found"}})"; }

// A recorded list page whose VMs carry our tags (the recordings carry none).
std::string tagged_page(const std::string& fixture)
{
    JsonRef page = parse(provider_fixture("azure_arm/" + fixture));
    json_t* value = json_object_get(page.get(), "value");
    for (std::size_t i = 0; i < json_array_size(value); ++i) {
        json_t* vm = json_array_get(value, i);
        json_object_set_new(vm, "tags",
                            json_pack("{s:s, s:s, s:s}", "slurm-burst-cluster", "hpc", "slurm-burst-id", "site-1",
                                      "slurm-burst-node", json_string_value(json_object_get(vm, "name"))));
    }
    return json_text(page.get());
}

// ARM from several threads at once: a VM's GET is 404 (and so is its NIC), its PUT creates it.
HttpResponse arm_answer(const HttpRequest& request)
{
    HttpResponse r;
    r.status = request.method == "PUT" ? 201 : 404;
    r.body = request.method == "PUT" ? vm_answer(request.path.substr(request.path.rfind('/') + 1), "Succeeded")
                                     : not_found();
    return r;
}

bool is_put(const HttpRequest& request) { return request.method == "PUT"; }

} // namespace

TEST_GROUP(AzureProvider)
{
    QueuedTransport transport;
    ManualClock clock{1000};
    AzureProviderConfig config;
    int invalidations = 0;
    int sleeps = 0;

    void setup() override
    {
        config.subscription = kSub;
        config.resource_group = "000000";
        config.location = "eastus";
        config.image = {"", "Canonical", "ubuntu-24_04-lts", "server", "latest"};
        config.subnet_id = "/subscriptions/s/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/v/subnets/hpc";
        config.vm_size = "Standard_D4s_v5";
        config.ssh_public_key = "ssh-ed25519 AAAAC3 burstd";
        config.operation_wait = 20;
        config.poll_interval = 5;
    }
    std::unique_ptr<AzureProvider> provider()
    {
        return std::make_unique<AzureProvider>(transport, std::make_unique<FixedTokenSource>(invalidations), config,
                                               clock, [this](Seconds s) {
                                                   ++sleeps;
                                                   clock.advance(s);
                                               });
    }
    void check_call(std::size_t i, const std::string& method, const std::string& path, const std::string& query)
    {
        const HttpRequest& r = transport.sent.at(i);
        STRCMP_EQUAL(method.c_str(), r.method.c_str());
        STRCMP_EQUAL("https://management.azure.com", r.origin.c_str());
        STRCMP_EQUAL(path.c_str(), r.path.c_str());
        STRCMP_EQUAL(query.c_str(), r.query.c_str());
        STRCMP_EQUAL((std::string("Bearer ") + kSecretToken).c_str(), r.header("Authorization").c_str());
    }
};

TEST(AzureProvider, CreateSendsTheVmTemplateAndFollowsTheAsyncOperation)
{
    transport.answer(404, not_found())
        .answer(201, vm_answer("cloud-1"), {{"Azure-AsyncOperation", kAsync}})
        .answer(200, R"({"status": "InProgress"})")
        .answer(200, R"({"status": "Succeeded"})")
        .answer(200, provider_fixture("azure_arm/_subscriptions_99999999_resourceGroups_000000_providers_Microsoft_"
                                      "Network_networkInterfaces_test_node_1_nic.json"));
    const auto results = provider()->launch({request("cloud-1", true)});

    CHECK_TEXT(!results[0].error, results[0].error.message.c_str());
    STRCMP_EQUAL((kVms + "/cloud-1").c_str(), results[0].provider_id.c_str());
    check_call(0, "GET", kVms + "/cloud-1", "api-version=2024-03-01");
    check_call(1, "PUT", kVms + "/cloud-1", "api-version=2024-03-01");
    check_call(2, "GET", "/subscriptions/99999999-9999-9999-9999-999999999999/providers/Microsoft.Compute/locations/"
                         "eastus/operations/op-1",
               "api-version=2024-03-01");
    check_call(4, "GET",
               "/subscriptions/99999999-9999-9999-9999-999999999999/resourceGroups/000000/providers/"
               "Microsoft.Network/networkInterfaces/cloud-1-nic",
               "api-version=2022-11-01");
    STRCMP_EQUAL("10.0.0.1", results[0].address.c_str());
    LONGS_EQUAL(5, transport.sent.size());
    LONGS_EQUAL(2, sleeps);

    const HttpRequest& put = transport.sent[1];
    STRCMP_EQUAL("application/json", put.header("Content-Type").c_str());
    JsonRef vm = parse(put.body);
    STRCMP_EQUAL("eastus", str(vm.get(), {"location"}).c_str());
    STRCMP_EQUAL("hpc", str(vm.get(), {"tags", "slurm-burst-cluster"}).c_str());
    STRCMP_EQUAL("cloud-1", str(vm.get(), {"tags", "slurm-burst-node"}).c_str());
    STRCMP_EQUAL("site-1", str(vm.get(), {"tags", "slurm-burst-id"}).c_str());
    STRCMP_EQUAL("tok-cloud-1", str(vm.get(), {"tags", "slurm-burst-token"}).c_str());
    const json_t* p = json_object_get(vm.get(), "properties");
    STRCMP_EQUAL("Standard_F8s_v2", str(p, {"hardwareProfile", "vmSize"}).c_str());
    STRCMP_EQUAL("Canonical", str(p, {"storageProfile", "imageReference", "publisher"}).c_str());
    STRCMP_EQUAL("ubuntu-24_04-lts", str(p, {"storageProfile", "imageReference", "offer"}).c_str());
    STRCMP_EQUAL("server", str(p, {"storageProfile", "imageReference", "sku"}).c_str());
    STRCMP_EQUAL("latest", str(p, {"storageProfile", "imageReference", "version"}).c_str());
    STRCMP_EQUAL("FromImage", str(p, {"storageProfile", "osDisk", "createOption"}).c_str());
    STRCMP_EQUAL("Delete", str(p, {"storageProfile", "osDisk", "deleteOption"}).c_str());
    STRCMP_EQUAL("StandardSSD_LRS", str(p, {"storageProfile", "osDisk", "managedDisk", "storageAccountType"}).c_str());
    STRCMP_EQUAL("cloud-1", str(p, {"osProfile", "computerName"}).c_str());
    STRCMP_EQUAL("burstd", str(p, {"osProfile", "adminUsername"}).c_str());
    const json_t* key = json_array_get(
        json_object_get(json_object_get(json_object_get(json_object_get(p, "osProfile"), "linuxConfiguration"), "ssh"),
                        "publicKeys"),
        0);
    STRCMP_EQUAL("/home/burstd/.ssh/authorized_keys", str(key, {"path"}).c_str());
    STRCMP_EQUAL("ssh-ed25519 AAAAC3 burstd", str(key, {"keyData"}).c_str());
    const json_t* net = json_object_get(p, "networkProfile");
    STRCMP_EQUAL("2022-11-01", str(net, {"networkApiVersion"}).c_str());
    const json_t* nic = json_array_get(json_object_get(net, "networkInterfaceConfigurations"), 0);
    STRCMP_EQUAL("cloud-1-nic", str(nic, {"name"}).c_str());
    STRCMP_EQUAL("Delete", str(nic, {"properties", "deleteOption"}).c_str());
    CHECK(json_is_true(json_object_get(json_object_get(nic, "properties"), "primary")));
    const json_t* ipconfig = json_array_get(json_object_get(json_object_get(nic, "properties"), "ipConfigurations"), 0);
    STRCMP_EQUAL(config.subnet_id.c_str(), str(ipconfig, {"properties", "subnet", "id"}).c_str());
    STRCMP_EQUAL("Spot", str(p, {"priority"}).c_str());
    STRCMP_EQUAL("Delete", str(p, {"evictionPolicy"}).c_str());
    LONGS_EQUAL(-1, json_integer_value(json_object_get(json_object_get(p, "billingProfile"), "maxPrice")));
}

TEST(AzureProvider, OnDemandVmHasNoSpotFieldsAndImageById)
{
    config.image = {"/subscriptions/s/resourceGroups/img/providers/Microsoft.Compute/images/node", "", "", "", ""};
    transport.answer(404, not_found()).answer(200, vm_answer("cloud-1"));
    const auto r = provider()->launch({request("cloud-1")})[0];
    CHECK(!r.error);
    JsonRef vm = parse(transport.sent.at(1).body);
    const json_t* p = json_object_get(vm.get(), "properties");
    CHECK(!json_object_get(p, "priority") && !json_object_get(p, "evictionPolicy"));
    STRCMP_EQUAL(config.image.id.c_str(), str(p, {"storageProfile", "imageReference", "id"}).c_str());
    CHECK(!json_object_get(json_object_get(json_object_get(p, "storageProfile"), "imageReference"), "publisher"));
    LONGS_EQUAL(0, sleeps); // no Azure-AsyncOperation header: nothing to follow
}

TEST(AzureProvider, AllocationFailureIsReportedOnceTheFailedVmIsGone)
{
    transport.answer(404, not_found())
        .answer(201, vm_answer("cloud-1"), {{"Azure-AsyncOperation", kAsync}})
        .answer(200, R"({"status": "Failed", "error": {"code": "AllocationFailed",
                         "message": "Allocation failed. We do not have sufficient capacity"}})")
        .answer(202, "", {{"Azure-AsyncOperation", kAsync}})
        .answer(200, R"({"status": "InProgress"})")
        .answer(200, R"({"status": "Succeeded"})")
        .answer(200, vm_answer("cloud-1", "Deleting"))
        .answer(404, not_found());
    const auto r = provider()->launch({request("cloud-1")})[0];
    CHECK(r.error.kind == ProviderErrorKind::Capacity);
    CHECK(has(r.error.message, "AllocationFailed"));
    CHECK(!has(r.error.message, "not confirmed"));
    STRCMP_EQUAL("", r.provider_id.c_str());
    check_call(3, "DELETE", kVms + "/cloud-1", "api-version=2024-03-01");
    check_call(4, "GET", "/subscriptions/" + std::string(kSub) + "/providers/Microsoft.Compute/locations/eastus/operations/op-1",
               "api-version=2024-03-01");
    check_call(5, "GET", "/subscriptions/" + std::string(kSub) + "/providers/Microsoft.Compute/locations/eastus/operations/op-1",
               "api-version=2024-03-01");
    check_call(6, "GET", kVms + "/cloud-1", "api-version=2024-03-01");
    check_call(7, "GET", kVms + "/cloud-1", "api-version=2024-03-01");
    CHECK(transport.exhausted());
}

TEST(AzureProvider, AFailedVmStillThereAtOperationWaitIsSaidSo)
{
    transport.answer(404, not_found())
        .answer(201, vm_answer("cloud-1"), {{"Azure-AsyncOperation", kAsync}})
        .answer(200, R"({"status": "Failed", "error": {"code": "ZonalAllocationFailed", "message": "no capacity"}})")
        .answer(202, "");
    for (int i = 0; i < 5; ++i) // OperationWait 20 s, polled every 5 s: the GET at 0, 5, 10, 15 and 20 s
        transport.answer(200, vm_answer("cloud-1", "Deleting"));
    const auto r = provider()->launch({request("cloud-1")})[0];
    CHECK(r.error.kind == ProviderErrorKind::Capacity);
    CHECK(has(r.error.message, "ZonalAllocationFailed"));
    CHECK(has(r.error.message, "not confirmed deleted"));
    CHECK(has(r.error.message, "provisioningState Deleting"));
    CHECK(has(r.error.message, "cloud-1 is not relaunched until it is gone"));
    CHECK(transport.exhausted());
}

TEST(AzureProvider, AnOwnVmBeingDeletedIsNeverAdoptedNorPutOver)
{
    transport.answer(200, vm_answer("cloud-1", "Deleting"));
    const auto r = provider()->launch({request("cloud-1")})[0];
    CHECK(r.error.kind == ProviderErrorKind::Transient);
    CHECK(has(r.error.message, "still being deleted"));
    STRCMP_EQUAL("", r.provider_id.c_str());
    LONGS_EQUAL(1, transport.sent.size());
}

TEST(AzureProvider, AnOwnFailedVmIsDeletedAndConfirmedGoneBeforeTheCreate)
{
    transport.answer(200, vm_answer("cloud-1", "Failed"))
        .answer(202, "", {{"Azure-AsyncOperation", kAsync}})
        .answer(200, R"({"status": "Succeeded"})")
        .answer(404, not_found())
        .answer(201, vm_answer("cloud-1"));
    const auto r = provider()->launch({request("cloud-1")})[0];
    CHECK(!r.error);
    STRCMP_EQUAL((kVms + "/cloud-1").c_str(), r.provider_id.c_str());
    check_call(1, "DELETE", kVms + "/cloud-1", "api-version=2024-03-01");
    check_call(3, "GET", kVms + "/cloud-1", "api-version=2024-03-01");
    check_call(4, "PUT", kVms + "/cloud-1", "api-version=2024-03-01");

    transport.answer(200, vm_answer("cloud-2", "Failed")).answer(409, R"({"error": {"code": "Conflict"}})");
    const auto refused = provider()->launch({request("cloud-2")})[0];
    CHECK(refused.error.kind != ProviderErrorKind::None);
    CHECK(has(refused.error.message, "Failed VM is not gone"));
    LONGS_EQUAL(7, transport.sent.size()); // no PUT
}

TEST(AzureProvider, SynchronousRefusalsAreClassified)
{
    transport.answer(404, not_found())
        .answer(409, R"({"error": {"code": "OperationNotAllowed", "message": "exceeding approved standardFSv2Family Cores quota"}})");
    CHECK(provider()->launch({request("a")})[0].error.kind == ProviderErrorKind::Quota);
    transport.answer(404, not_found()).answer(409, R"({"error": {"code": "SkuNotAvailable", "message": "restricted"}})");
    CHECK(provider()->launch({request("b")})[0].error.kind == ProviderErrorKind::Capacity);
    transport.answer(429, R"({"error": {"code": "TooManyRequests"}})", {{"Retry-After", "30"}});
    const auto throttled = provider()->launch({request("c")})[0].error;
    CHECK(throttled.kind == ProviderErrorKind::Throttled);
    DOUBLES_EQUAL(30, throttled.retry_after, 0);
    transport.answer(404, not_found()).answer(400, R"({"error": {"code": "InvalidParameter", "message": "vmSize"}})");
    CHECK(provider()->launch({request("d")})[0].error.kind == ProviderErrorKind::Invalid);
    transport.answer(403, R"({"error": {"code": "AuthorizationFailed", "message": "no write permission"}})");
    CHECK(provider()->launch({request("e")})[0].error.kind == ProviderErrorKind::Auth);
    transport.fail("connection reset");
    CHECK(provider()->launch({request("f")})[0].error.kind == ProviderErrorKind::Transient);
    transport.answer(404, not_found()).answer(503, "");
    CHECK(provider()->launch({request("g")})[0].error.kind == ProviderErrorKind::Transient);
    CHECK(provider()->launch({request("bad/name")})[0].error.kind == ProviderErrorKind::Invalid);
    CHECK(transport.exhausted());
}

TEST(AzureProvider, ExistingVmIsAdoptedIfOursAndNeverOverwritten)
{
    transport.answer(200, vm_answer("cloud-1", "Succeeded"));
    const auto adopted = provider()->launch({request("cloud-1")})[0];
    CHECK(!adopted.error);
    STRCMP_EQUAL((kVms + "/cloud-1").c_str(), adopted.provider_id.c_str());
    LONGS_EQUAL(1, transport.sent.size());

    transport.answer(200, provider_fixture(
                              "azure_arm/_subscriptions_99999999_resourceGroups_000000_providers_Microsoft_Compute_"
                              "virtualMachines_test_node_1.json"));
    const auto foreign = provider()->launch({request("test_vm")})[0];
    CHECK(foreign.error.kind == ProviderErrorKind::Invalid);
    CHECK(has(foreign.error.message, "not ours"));
    LONGS_EQUAL(2, transport.sent.size()); // no PUT
}

TEST(AzureProvider, ListFollowsNextLinkAndFiltersByTag)
{
    JsonRef first = parse(tagged_page("_subscriptions_99999999_providers_Microsoft_Compute_virtualMachines.json"));
    json_array_append_new(json_object_get(first.get(), "value"),
                          json_pack("{s:s, s:s, s:{}}", "id", (kVms + "/other").c_str(), "name", "other", "tags"));
    json_t* leaving = json_object_get(json_array_get(json_object_get(first.get(), "value"), 0), "properties");
    json_object_set_new(leaving, "provisioningState", json_string("Deleting"));
    transport.answer(200, json_text(first.get()))
        .answer(200, tagged_page("_subscriptions_99999999_providers_Microsoft_Compute_virtualMachines_1.json"));
    const auto result = provider()->list({"hpc", "", "site-1"});

    CHECK_TEXT(!result.error, result.error.message.c_str());
    LONGS_EQUAL(2, result.instances.size());
    STRCMP_EQUAL((kVms + "/test-node-1").c_str(), result.instances[0].provider_id.c_str());
    STRCMP_EQUAL("test-node-1", result.instances[0].node.c_str());
    STRCMP_EQUAL("Deleting", result.instances[0].state.c_str());
    CHECK(result.instances[0].gone);
    STRCMP_EQUAL("Running", result.instances[1].state.c_str());
    CHECK(!result.instances[1].gone);
    STRCMP_EQUAL("test-node-2", result.instances[1].node.c_str());
    check_call(0, "GET", kVms, "api-version=2024-03-01");
    check_call(1, "GET", "/subscriptions/99999999-9999-9999-9999-999999999999/providers/Microsoft.Compute/virtualMachines",
               "api-version=2021-11-01&$skiptoken=1!/Subscriptions/99999999-9999-9999-9999-999999999999/ResourceGroups/"
               "000000/VMs/DDFEBF64-E92B-4A50-9949-6E44BFC61D4G");
}

TEST(AzureProvider, ListStopsAtTheRecordedPaginationLoop)
{
    transport.answer(200, tagged_page("_subscriptions_99999999_providers_Microsoft_Compute_virtualMachines.json"))
        .answer(200, tagged_page(
                         "_subscriptions_99999999_providers_Microsoft_Compute_virtualMachines_PAGINATION_INFINITE_LOOP.json"));
    const auto result = provider()->list({"hpc", "", "site-1"});
    CHECK(result.error.kind == ProviderErrorKind::Transient);
    CHECK(has(result.error.message, "pagination loop"));
    CHECK(result.instances.empty());
    LONGS_EQUAL(2, transport.sent.size());
}

TEST(AzureProvider, ContinuationUrlsOffTheManagementOriginAreRefused)
{
    transport.answer(200, R"({"value": [], "nextLink": "https://evil.example.com/steal?x=1"})");
    const auto result = provider()->list({"hpc", "", "site-1"});
    CHECK(result.error.kind == ProviderErrorKind::Transient);
    CHECK(has(result.error.message, "refusing to follow"));
    LONGS_EQUAL(1, transport.sent.size());
}

TEST(AzureProvider, TerminatePollsDeletesAndTreats404AsGone)
{
    config.parallel_requests = 1; // the queued answers come in order
    transport.answer(202, "", {{"Azure-AsyncOperation", kAsync}})
        .answer(404, not_found())
        .answer(202, "", {{"Location", "https://management.azure.com/subscriptions/x/operationResults/r1"}})
        .answer(200, R"({"status": "Succeeded"})")
        .answer(200, "");
    const auto errors = provider()->terminate({kVms + "/a", kVms + "/gone", kVms + "/b", "/subscriptions/x/vm"});
    LONGS_EQUAL(1, errors.size());
    CHECK(errors.at("/subscriptions/x/vm").kind == ProviderErrorKind::Invalid);
    check_call(0, "DELETE", kVms + "/a", "api-version=2024-03-01");
    check_call(3, "GET", "/subscriptions/99999999-9999-9999-9999-999999999999/providers/Microsoft.Compute/locations/"
                         "eastus/operations/op-1",
               "api-version=2024-03-01");
    check_call(4, "GET", "/subscriptions/x/operationResults/r1", "");
    CHECK(transport.exhausted());

    transport.answer(202, "", {{"Azure-AsyncOperation", kAsync}})
        .answer(200, R"({"status": "Failed", "error": {"code": "InternalExecutionError"}})");
    CHECK(provider()->terminate({kVms + "/a"}).at(kVms + "/a").kind == ProviderErrorKind::Transient);
}

TEST(AzureProvider, RetriesOnceWithAFreshTokenAndNeverLeaksIt)
{
    const std::string expired = R"({"error": {"code": "ExpiredAuthenticationToken", "message": "The access token expiry"}})";
    transport.answer(401, expired).answer(401, expired);
    const auto r = provider()->launch({request("cloud-1")})[0];
    CHECK(r.error.kind == ProviderErrorKind::Auth);
    LONGS_EQUAL(2, invalidations);
    CHECK(!has(r.error.message, kSecretToken));
    transport.answer(401, expired).answer(200, R"({"value": []})");
    CHECK(!provider()->list({"hpc", "", "site-1"}).error);
    transport.answer(403, R"({"error": {"code": "AuthorizationFailed"}})");
    const auto denied = provider()->terminate({kVms + "/a"});
    CHECK(denied.at(kVms + "/a").kind == ProviderErrorKind::Auth);
    CHECK(!has(denied.at(kVms + "/a").message, kSecretToken));
}

TEST(AzureProvider, AZonalVmNamesTheRequestedZoneOrTheFirstConfiguredOne)
{
    LaunchRequest r = request("cloud-1");
    r.zone = "2";
    transport.answer(404, not_found()).answer(200, vm_answer("cloud-1"));
    CHECK(!provider()->launch({r})[0].error);
    STRCMP_EQUAL("2", str(json_array_get(json_object_get(parse(transport.sent.at(1).body).get(), "zones"), 0), {}).c_str());

    config.zones = {"3", "1"};
    auto zonal = provider();
    CHECK(zonal->zones() == config.zones);
    transport.answer(404, not_found()).answer(200, vm_answer("cloud-2"));
    CHECK(!zonal->launch({request("cloud-2")})[0].error);
    JsonRef vm = parse(transport.sent.back().body);
    LONGS_EQUAL(1, json_array_size(json_object_get(vm.get(), "zones")));
    STRCMP_EQUAL("3", str(json_array_get(json_object_get(vm.get(), "zones"), 0), {}).c_str());
}

TEST(AzureProvider, ARegionalVmHasNoZones)
{
    transport.answer(404, not_found()).answer(200, vm_answer("cloud-1"));
    CHECK(!provider()->launch({request("cloud-1")})[0].error);
    CHECK(!json_object_get(parse(transport.sent.at(1).body).get(), "zones"));
}

TEST(AzureProvider, OneLaunchCreatesParallelRequestsVmsAtOnceAndAnswersInRequestOrder)
{
    config.parallel_requests = 4;
    GatheringTransport arm(arm_answer, is_put, 4, std::chrono::seconds(5));
    AzureProvider azure(arm, std::make_unique<FixedTokenSource>(invalidations), config, clock, [](Seconds) {});
    std::vector<LaunchRequest> requests;
    for (int i = 1; i <= 12; ++i)
        requests.push_back(request("cloud-" + std::to_string(i)));
    const auto results = azure.launch(requests);
    LONGS_EQUAL(12, results.size());
    for (std::size_t i = 0; i < results.size(); ++i) {
        CHECK(!results[i].error);
        STRCMP_EQUAL(requests[i].node.c_str(), results[i].node.c_str());
        STRCMP_EQUAL((kVms + "/" + requests[i].node).c_str(), results[i].provider_id.c_str());
    }
    LONGS_EQUAL(12, arm.picked);
    LONGS_EQUAL(4, arm.most_in_flight);
    LONGS_EQUAL(4, azure.launch_batch_limit());
}

TEST(AzureProvider, ParallelRequestsOfOneCreatesVmsOneAfterAnother)
{
    config.parallel_requests = 1;
    GatheringTransport arm(arm_answer, is_put, 2, std::chrono::milliseconds(200));
    AzureProvider azure(arm, std::make_unique<FixedTokenSource>(invalidations), config, clock, [](Seconds) {});
    const auto results = azure.launch({request("cloud-1"), request("cloud-2"), request("cloud-3")});
    for (const auto& r : results)
        CHECK(!r.error);
    LONGS_EQUAL(1, arm.most_in_flight);
    LONGS_EQUAL(1, azure.launch_batch_limit());
}

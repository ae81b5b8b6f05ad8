#include "provider/aws/ec2_fleet_launcher.hpp"
#include "provider/aws/ec2_provider.hpp"
#include "provider/aws/environment_credentials.hpp"
#include "scripted_transport.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

// Shapes follow the EC2 API reference for CreateFleet (fleetInstanceSet,
// errorSet with launchTemplateAndOverrides); no recorded fixture exists.
std::string fleet_response(const std::vector<std::string>& ids, const std::string& type,
                           const std::vector<std::pair<std::string, std::string>>& errors = {})
{
    std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
                      "<CreateFleetResponse xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\">"
                      "<requestId>r-1</requestId><fleetId>fleet-0a1b</fleetId><errorSet>";
    for (const auto& [code, subnet] : errors)
        xml += "<item><errorCode>" + code + "</errorCode><errorMessage>no " + type +
               " here</errorMessage><launchTemplateAndOverrides><overrides><instanceType>" + type +
               "</instanceType><subnetId>" + subnet + "</subnetId></overrides></launchTemplateAndOverrides>"
               "<lifecycle>on-demand</lifecycle></item>";
    xml += "</errorSet><fleetInstanceSet>";
    if (!ids.empty()) {
        xml += "<item><instanceIds>";
        for (const auto& id : ids)
            xml += "<item>" + id + "</item>";
        xml += "</instanceIds><instanceType>" + type + "</instanceType><lifecycle>on-demand</lifecycle></item>";
    }
    return xml + "</fleetInstanceSet></CreateFleetResponse>";
}

std::string error_document(const std::string& code)
{
    return "<Response><Errors><Error><Code>" + code + "</Code><Message>m</Message></Error></Errors>"
           "<RequestID>r</RequestID></Response>";
}

LaunchRequest node(const std::string& name, bool spot = false)
{
    LaunchRequest r;
    r.node = name;
    r.instance_type = "c5.large";
    r.idempotency_token = "tok-" + name;
    r.tags = {"hpc1", name, "burstd-7"};
    r.spot = spot;
    return r;
}

bool contains(const std::string& haystack, const std::string& needle)
{
    return haystack.find(needle) != std::string::npos;
}

} // namespace

TEST_GROUP(Ec2FleetLauncher)
{
    ManualClock clock{1440938160};
    ScriptedTransport transport;
    std::unique_ptr<CredentialChain> credentials;
    std::unique_ptr<Ec2Client> client;
    std::unique_ptr<Ec2Provider> provider;
    void setup() override
    {
        std::vector<std::unique_ptr<CredentialSource>> sources;
        sources.push_back(std::make_unique<EnvironmentCredentials>([](const std::string& n) -> std::optional<std::string> {
            if (n == "AWS_ACCESS_KEY_ID")
                return std::string("AKIDEXAMPLE");
            if (n == "AWS_SECRET_ACCESS_KEY")
                return std::string("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY");
            return std::nullopt;
        }));
        credentials = std::make_unique<CredentialChain>(std::move(sources), clock);
        client = std::make_unique<Ec2Client>(transport, *credentials, clock, "us-east-1",
                                             "https://ec2.us-east-1.amazonaws.com");
        Ec2ProviderConfig config;
        config.launch_template = {"lt-0abc", "", ""};
        config.subnet_ids = {"subnet-a", "subnet-b"};
        config.fallback_instance_types = {"c5a.large"};
        provider = std::make_unique<Ec2Provider>(*client, config);
    }
};

TEST(Ec2FleetLauncher, APartialFleetServesNodesInOrderAndTheRestFallBackToTheNextType)
{
    transport.answer(200, fleet_response({"i-0aaa", "i-0bbb"}, "c5.large", {{"InsufficientInstanceCapacity", "subnet-a"}}));
    transport.answer(200, fleet_response({"i-0ccc"}, "c5a.large"));
    auto results = provider->launch({node("cloud-1"), node("cloud-2"), node("cloud-3")});
    CHECK(transport.exhausted()); // two calls for three nodes: no call per node
    LONGS_EQUAL(3, results.size());
    STRCMP_EQUAL("i-0aaa", results[0].provider_id.c_str());
    STRCMP_EQUAL("i-0bbb", results[1].provider_id.c_str());
    STRCMP_EQUAL("cloud-3", results[2].node.c_str());
    STRCMP_EQUAL("i-0ccc", results[2].provider_id.c_str());
    for (const auto& r : results)
        CHECK(!r.error);

    const std::string& fleet1 = transport.sent[0].body;
    CHECK(contains(fleet1, "Action=CreateFleet&Version=2016-11-15&Type=instant&"));
    CHECK(contains(fleet1, "LaunchTemplateConfigs.1.Overrides.1.InstanceType=c5.large&"
                           "LaunchTemplateConfigs.1.Overrides.1.SubnetId=subnet-a&"
                           "LaunchTemplateConfigs.1.Overrides.2.InstanceType=c5.large&"
                           "LaunchTemplateConfigs.1.Overrides.2.SubnetId=subnet-b&"));
    CHECK(contains(fleet1, "TotalTargetCapacity=3&"));
    CHECK(contains(fleet1, "DefaultTargetCapacityType=on-demand"));
    CHECK(contains(fleet1, "&ClientToken=" + fleet_client_token({"tok-cloud-1", "tok-cloud-2", "tok-cloud-3"},
                                                                 "c5.large") + "&"));
    // EC2 tags a fleet's instances alike: three nodes, so only the owner's tags.
    CHECK(contains(fleet1, "TagSpecification.1.Tag.1.Key=slurm-burst%3Acluster&TagSpecification.1.Tag.1.Value=hpc1&"
                           "TagSpecification.1.Tag.2.Key=slurm-burst%3Aburstd-id&"
                           "TagSpecification.1.Tag.2.Value=burstd-7"));
    CHECK(!contains(fleet1, "slurm-burst%3Anode"));
    const std::string& fleet2 = transport.sent[1].body;
    CHECK(contains(fleet2, "Overrides.1.InstanceType=c5a.large&"));
    CHECK(contains(fleet2, "TotalTargetCapacity=1&"));
    CHECK(contains(fleet2, "&ClientToken=" + fleet_client_token({"tok-cloud-3"}, "c5a.large") + "&"));
    // A fleet of one node carries that node's tags.
    CHECK(contains(fleet2, "TagSpecification.1.Tag.3.Key=slurm-burst%3Anode&TagSpecification.1.Tag.3.Value=cloud-3&"
                           "TagSpecification.1.Tag.4.Key=Name&TagSpecification.1.Tag.4.Value=cloud-3"));
}

TEST(Ec2FleetLauncher, NodesLeftWhenEveryTypeIsShortGetTheCapacityError)
{
    transport.answer(200, fleet_response({"i-0aaa"}, "c5.large", {{"InsufficientInstanceCapacity", "subnet-a"}}));
    transport.answer(500, error_document("InsufficientInstanceCapacity"));
    auto results = provider->launch({node("cloud-1"), node("cloud-2"), node("cloud-3")});
    CHECK(transport.exhausted());
    STRCMP_EQUAL("i-0aaa", results[0].provider_id.c_str());
    for (size_t i = 1; i < 3; ++i) {
        STRCMP_EQUAL("", results[i].provider_id.c_str());
        CHECK(results[i].error.kind == ProviderErrorKind::Capacity);
        STRCMP_EQUAL("EC2 CreateFleet: HTTP 500 InsufficientInstanceCapacity: m", results[i].error.message.c_str());
    }
}

TEST(Ec2FleetLauncher, AQuotaErrorStopsTheFallback)
{
    transport.answer(200, fleet_response({}, "c5.large", {{"VcpuLimitExceeded", "subnet-b"},
                                                          {"InsufficientInstanceCapacity", "subnet-a"}}));
    auto results = provider->launch({node("cloud-1")});
    CHECK(transport.exhausted());
    CHECK(results[0].error.kind == ProviderErrorKind::Quota);
    STRCMP_EQUAL("EC2 CreateFleet: VcpuLimitExceeded for c5.large in subnet-b: no c5.large here",
                 results[0].error.message.c_str());
}

TEST(Ec2FleetLauncher, AWholeCallQuotaErrorIsNotRetriedWithAnotherType)
{
    transport.answer(400, error_document("InstanceLimitExceeded"));
    auto results = provider->launch({node("cloud-1"), node("cloud-2")});
    CHECK(transport.exhausted());
    CHECK(results[0].error.kind == ProviderErrorKind::Quota);
    CHECK(results[1].error.kind == ProviderErrorKind::Quota);
}

TEST(Ec2FleetLauncher, SpotAndOnDemandNodesGoInSeparateFleets)
{
    transport.answer(200, fleet_response({"i-0aaa"}, "c5.large"));
    transport.answer(200, fleet_response({"i-0bbb"}, "c5.large"));
    auto results = provider->launch({node("cloud-1", true), node("cloud-2", false)});
    CHECK(transport.exhausted());
    STRCMP_EQUAL("i-0aaa", results[0].provider_id.c_str());
    STRCMP_EQUAL("i-0bbb", results[1].provider_id.c_str());
    CHECK(contains(transport.sent[0].body, "TargetCapacitySpecification.SpotTargetCapacity=1&"
                                           "TargetCapacitySpecification.DefaultTargetCapacityType=spot&"));
    CHECK(contains(transport.sent[1].body, "TargetCapacitySpecification.OnDemandTargetCapacity=1&"
                                           "TargetCapacitySpecification.DefaultTargetCapacityType=on-demand&"));
}

// One job's nodes: EC2 launches all of them, of one type in one zone, or none.
TEST(Ec2FleetLauncher, AJobsNodesAskForAMinimumOfAllOfThemInOneTypeAndZone)
{
    LaunchRequest a = node("cloud-1"), b = node("cloud-2"), alone = node("cloud-3");
    a.all_or_nothing = b.all_or_nothing = true;
    transport.answer(200, fleet_response({}, "c5.large", {{"InsufficientInstanceCapacity", "subnet-a"}}));
    transport.answer(200, fleet_response({"i-0aaa", "i-0bbb"}, "c5a.large"));
    transport.answer(200, fleet_response({"i-0ccc"}, "c5.large"));
    auto results = provider->launch({a, b, alone});
    CHECK(transport.exhausted());
    STRCMP_EQUAL("i-0aaa", results[0].provider_id.c_str());
    STRCMP_EQUAL("i-0bbb", results[1].provider_id.c_str());
    STRCMP_EQUAL("i-0ccc", results[2].provider_id.c_str());
    // Short of the minimum in the first type, the whole job moves to the fallback type.
    for (int call : {0, 1}) {
        CHECK(contains(transport.sent[call].body, "TargetCapacitySpecification.TotalTargetCapacity=2&"));
        CHECK(contains(transport.sent[call].body, "OnDemandOptions.MinTargetCapacity=2&"
                                                  "OnDemandOptions.SingleInstanceType=true&"
                                                  "OnDemandOptions.SingleAvailabilityZone=true&"));
    }
    CHECK(contains(transport.sent[1].body, "Overrides.1.InstanceType=c5a.large&"));
    CHECK(!contains(transport.sent[2].body, "MinTargetCapacity"));
}

TEST(Ec2FleetLauncher, ASpotJobsMinimumIsASpotOption)
{
    LaunchRequest a = node("cloud-1", true), b = node("cloud-2", true);
    a.all_or_nothing = b.all_or_nothing = true;
    transport.answer(200, fleet_response({"i-0aaa", "i-0bbb"}, "c5.large"));
    provider->launch({a, b});
    CHECK(contains(transport.sent[0].body, "SpotOptions.MinTargetCapacity=2&"));
}

TEST(Ec2FleetLauncher, FewerInstancesWithoutAnErrorAreATransientFailure)
{
    transport.answer(200, fleet_response({"i-0aaa"}, "c5.large"));
    auto results = provider->launch({node("cloud-1"), node("cloud-2")});
    CHECK(transport.exhausted());
    CHECK(results[1].error.kind == ProviderErrorKind::Transient);
    STRCMP_EQUAL("EC2 CreateFleet: 1 of 2 instances and no error given", results[1].error.message.c_str());
}

TEST(Ec2FleetLauncher, ClientTokenIsStablePerBatchAndType)
{
    const std::string a = fleet_client_token({"t1", "t2"}, "c5.large");
    LONGS_EQUAL(64, a.size());
    STRCMP_EQUAL(a.c_str(), fleet_client_token({"t1", "t2"}, "c5.large").c_str());
    CHECK(a != fleet_client_token({"t1", "t2"}, "c5a.large"));
    CHECK(a != fleet_client_token({"t1"}, "c5.large"));
}

TEST(Ec2FleetLauncher, ASingleSubnetAndNoFallbackKeepRunInstances)
{
    Ec2ProviderConfig plain;
    plain.launch_template = {"lt-0abc", "", ""};
    plain.subnet_ids = {"subnet-a"};
    CHECK(!plain.uses_fleet());
    STRCMP_EQUAL("subnet-a", plain.run_instances_subnet().c_str());
    plain.subnet_ids.push_back("subnet-b");
    CHECK(plain.uses_fleet());
}

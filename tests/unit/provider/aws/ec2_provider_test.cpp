#include "provider/aws/ec2_provider.hpp"
#include "provider/aws/ec2_error_classifier.hpp"
#include "provider/aws/environment_credentials.hpp"
#include "provider/http/throttled_transport.hpp"
#include "fixture.hpp"
#include "scripted_transport.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

const std::string secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
const char capacity_error[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Response><Errors><Error><Code>InsufficientInstanceCapacity</Code>"
    "<Message>We currently do not have sufficient c5.xlarge capacity.</Message></Error></Errors>"
    "<RequestID>r-1</RequestID></Response>";

EnvironmentLookup env_of(std::map<std::string, std::string> vars)
{
    return [vars](const std::string& name) -> std::optional<std::string> {
        auto it = vars.find(name);
        if (it == vars.end())
            return std::nullopt;
        return it->second;
    };
}

CredentialChain chain_with(std::map<std::string, std::string> env, const Clock& clock)
{
    std::vector<std::unique_ptr<CredentialSource>> sources;
    sources.push_back(std::make_unique<EnvironmentCredentials>(env_of(std::move(env))));
    return CredentialChain(std::move(sources), clock);
}

LaunchRequest launch_request(const std::string& node, const std::string& token)
{
    LaunchRequest r;
    r.node = node;
    r.instance_type = "c5.xlarge";
    r.idempotency_token = token;
    r.tags = {"hpc1", node, "burstd-7"};
    return r;
}

bool contains(const std::string& haystack, const std::string& needle)
{
    return haystack.find(needle) != std::string::npos;
}

} // namespace

TEST_GROUP(Ec2Provider)
{
    ManualClock clock{1440938160};
    ScriptedTransport transport;
    CredentialChain credentials =
        chain_with({{"AWS_ACCESS_KEY_ID", "AKIDEXAMPLE"}, {"AWS_SECRET_ACCESS_KEY", secret}}, clock);
    std::unique_ptr<Ec2Client> client;
    std::unique_ptr<Ec2Provider> provider;
    void setup() override
    {
        client = std::make_unique<Ec2Client>(transport, credentials, clock, "us-east-1",
                                             "https://ec2.us-east-1.amazonaws.com");
        provider = std::make_unique<Ec2Provider>(*client, Ec2ProviderConfig{{"lt-0abc", "", ""}, "subnet-1", {}, {}});
    }
};

TEST(Ec2Provider, LaunchSendsASignedRunInstancesPerNode)
{
    transport.answer(200, provider_fixture("ec2/run_instances.xml"));
    auto results = provider->launch({launch_request("cloud-1", "ledger-1")});
    LONGS_EQUAL(1, results.size());
    CHECK(!results[0].error);
    STRCMP_EQUAL("i-2ba64342", results[0].provider_id.c_str());
    const HttpRequest& sent = transport.sent.at(0);
    STRCMP_EQUAL("https://ec2.us-east-1.amazonaws.com", sent.origin.c_str());
    STRCMP_EQUAL("POST", sent.method.c_str());
    STRCMP_EQUAL("ec2.us-east-1.amazonaws.com", sent.header("Host").c_str());
    CHECK(contains(sent.body, "Action=RunInstances&Version=2016-11-15&"));
    CHECK(contains(sent.body, "&ClientToken=ledger-1&"));
    CHECK(contains(sent.header("Authorization"),
                   "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/ec2/aws4_request, "
                   "SignedHeaders=content-type;host;x-amz-date, Signature="));
    CHECK(!contains(to_text(sent), secret));
}

TEST(Ec2Provider, LaunchReportsEachNodesOutcome)
{
    transport.answer(500, capacity_error);
    transport.answer(200, provider_fixture("ec2/run_instances_spot.xml"));
    auto results = provider->launch({launch_request("cloud-1", "t1"), launch_request("cloud-2", "t2")});
    LONGS_EQUAL(2, results.size());
    CHECK(results[0].error.kind == ProviderErrorKind::Capacity);
    STRCMP_EQUAL("EC2 RunInstances: HTTP 500 InsufficientInstanceCapacity: We currently do not have sufficient "
                 "c5.xlarge capacity.",
                 results[0].error.message.c_str());
    STRCMP_EQUAL("", results[0].provider_id.c_str());
    STRCMP_EQUAL("cloud-2", results[1].node.c_str());
    STRCMP_EQUAL("i-2ba64344", results[1].provider_id.c_str());
}

TEST(Ec2Provider, LaunchClassifiesTransportFailuresAndBadRequests)
{
    transport.fail("Connection timed out after 10000 milliseconds");
    auto results = provider->launch({launch_request("cloud-1", "t1"), launch_request("cloud-2", "")});
    CHECK(results[0].error.kind == ProviderErrorKind::Transient);
    STRCMP_EQUAL("EC2 RunInstances: Connection timed out after 10000 milliseconds", results[0].error.message.c_str());
    CHECK(results[1].error.kind == ProviderErrorKind::Invalid);
    LONGS_EQUAL(1, transport.sent.size());
}

TEST(Ec2Provider, MissingCredentialsAreAnAuthErrorAndSendNothing)
{
    CredentialChain none = chain_with({}, clock);
    Ec2Client bare(transport, none, clock, "us-east-1", "https://ec2.us-east-1.amazonaws.com");
    Ec2Provider p(bare, Ec2ProviderConfig{{"lt-0abc", "", ""}, "", {}, {}});
    auto results = p.launch({launch_request("cloud-1", "t1")});
    CHECK(results[0].error.kind == ProviderErrorKind::Auth);
    LONGS_EQUAL(0, transport.sent.size());
}

TEST(Ec2Provider, ListFollowsNextTokenAcrossPages)
{
    transport.answer(200, "<DescribeInstancesResponse><reservationSet><item><instancesSet><item>"
                          "<instanceId>i-0new</instanceId><instanceState><name>shutting-down</name></instanceState>"
                          "<privateIpAddress>10.0.0.5</privateIpAddress>"
                          "<stateReason><code>Server.SpotInstanceTermination</code></stateReason>"
                          "<tagSet><item><key>slurm-burst:node</key><value>cloud-9</value></item></tagSet>"
                          "</item></instancesSet></item></reservationSet><nextToken>page2</nextToken>"
                          "</DescribeInstancesResponse>");
    transport.answer(200, provider_fixture("ec2/describe_instances.xml"));
    ListResult r = provider->list({"hpc1", "", "burstd-7"});
    CHECK(!r.error);
    LONGS_EQUAL(3, r.instances.size());
    STRCMP_EQUAL("cloud-9", r.instances[0].node.c_str());
    CHECK(r.instances[0].gone);
    CHECK(r.instances[0].reclaimed);
    STRCMP_EQUAL("10.0.0.5", r.instances[0].address.c_str());
    STRCMP_EQUAL("i-8474834a", r.instances[2].provider_id.c_str());
    CHECK(!r.instances[2].gone);
    CHECK(!contains(transport.sent[0].body, "NextToken"));
    CHECK(contains(transport.sent[1].body, "&NextToken=page2"));
}

TEST(Ec2Provider, ListStopsOnARepeatedToken)
{
    const std::string page = "<DescribeInstancesResponse><reservationSet/><nextToken>same</nextToken>"
                             "</DescribeInstancesResponse>";
    transport.answer(200, page);
    transport.answer(200, page);
    ListResult r = provider->list({"hpc1", "", "burstd-7"});
    CHECK(r.error.kind == ProviderErrorKind::Transient);
    STRCMP_EQUAL("EC2 DescribeInstances: repeated NextToken", r.error.message.c_str());
}

TEST(Ec2Provider, TerminateReportsIdsMissingFromTheAnswerAndWholeBatchFailures)
{
    transport.answer(200, provider_fixture("ec2/terminate_instances.xml"));
    auto errors = provider->terminate({"i-4382922a", "i-0gone"});
    LONGS_EQUAL(1, errors.size());
    CHECK(errors.at("i-0gone").kind == ProviderErrorKind::Transient);

    transport.answer(503, "<Response><Errors><Error><Code>RequestLimitExceeded</Code><Message>Request limit "
                          "exceeded.</Message></Error></Errors></Response>");
    errors = provider->terminate({"i-1", "i-2"});
    LONGS_EQUAL(2, errors.size());
    CHECK(errors.at("i-2").kind == ProviderErrorKind::Throttled);
}

TEST_GROUP(Ec2ProviderBudget)
{
    ManualClock clock{1440938160.5}; // the back-off below crosses into the next second
    ScriptedTransport wire;
    CredentialChain credentials =
        chain_with({{"AWS_ACCESS_KEY_ID", "AKIDEXAMPLE"}, {"AWS_SECRET_ACCESS_KEY", secret}}, clock);
    std::shared_ptr<RequestBudget> budget;
    std::unique_ptr<ThrottledTransport> throttled;
    std::unique_ptr<Ec2Client> client;
    std::unique_ptr<Ec2Provider> provider;
    std::vector<Seconds> sleeps;
    void setup() override
    {
        RequestLimits limits;
        limits.read = {20, 100};
        limits.write = {5, 50};
        budget = std::make_shared<RequestBudget>("aws", "us-east-1", limits, clock);
        throttled = std::make_unique<ThrottledTransport>(
            wire, budget, ec2_throttle_rules(),
            [this](Seconds s) {
                sleeps.push_back(s);
                clock.advance(s);
            },
            [] { return 0.5; });
        client = std::make_unique<Ec2Client>(*throttled, credentials, clock, "us-east-1",
                                             "https://ec2.us-east-1.amazonaws.com");
        provider = std::make_unique<Ec2Provider>(*client, Ec2ProviderConfig{{"lt-0abc", "", ""}, "subnet-1", {}, {}});
    }
};

TEST(Ec2ProviderBudget, AThrottledListIsSignedAgainAndCompletesOverEveryPage)
{
    const char throttled_answer[] = "<Response><Errors><Error><Code>RequestLimitExceeded</Code>"
                                    "<Message>Request limit exceeded.</Message></Error></Errors></Response>";
    wire.answer(503, throttled_answer);
    wire.answer(200, provider_fixture("ec2/describe_instances.xml"));
    const ListResult r = provider->list({"hpc1", "", "burstd-7"});
    CHECK_TEXT(!r.error, r.error.message.c_str());
    CHECK(!r.instances.empty());
    LONGS_EQUAL(2, wire.sent.size());
    // A back-off of 0.75 s (half to all of 1 s) plus a read token's 1/20 s.
    LONGS_EQUAL(1, sleeps.size());
    DOUBLES_EQUAL(0.8, sleeps[0], 1e-9);
    // The retry carries a fresh signature, not the throttled request's.
    CHECK(wire.sent[0].header("Authorization") != wire.sent[1].header("Authorization"));
    CHECK(wire.sent[0].body == wire.sent[1].body);
    LONGS_EQUAL(2, budget->view().reads);
    LONGS_EQUAL(1, budget->view().throttled);
}

TEST(Ec2ProviderBudget, LaunchesSpendTheWriteBucketAndWaitOnceItIsEmpty)
{
    for (int i = 0; i < 51; ++i)
        wire.answer(200, provider_fixture("ec2/run_instances.xml"));
    std::vector<LaunchRequest> requests;
    for (int i = 0; i < 51; ++i)
        requests.push_back(launch_request("cloud-" + std::to_string(i), "ledger-" + std::to_string(i)));
    const auto results = provider->launch(requests);
    LONGS_EQUAL(51, results.size());
    // 50 go at once; the 51st waits for a token refilled at 5/s.
    LONGS_EQUAL(1, sleeps.size());
    DOUBLES_EQUAL(0.2, sleeps[0], 1e-9);
    LONGS_EQUAL(51, budget->view().writes);
    DOUBLES_EQUAL(0.2, budget->view().bucket_wait, 1e-9);
}

#include "provider/aws/ec2_responses.hpp"
#include "fixture.hpp"

#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

std::string error_of(void (*f)(const std::string&), const std::string& xml)
{
    try {
        f(xml);
    } catch (const XmlError& e) {
        return e.what();
    }
    return "no error";
}

// CreateFleet has no recorded fixture; this follows the response shape of the
// EC2 API reference (fleetInstanceSet and errorSet with launchTemplateAndOverrides).
const char create_fleet_partial[] = R"(<?xml version="1.0" encoding="UTF-8"?>
<CreateFleetResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">
  <requestId>3f1a0a4b-1d17-4c0e-9a0b-1234567890ab</requestId>
  <fleetId>fleet-0a1b2c3d-4e5f-6789-abcd-ef0123456789</fleetId>
  <errorSet>
    <item>
      <errorCode>InsufficientInstanceCapacity</errorCode>
      <errorMessage>We currently do not have sufficient c5.large capacity in the Availability Zone you requested.</errorMessage>
      <launchTemplateAndOverrides>
        <launchTemplateSpecification><launchTemplateId>lt-0123</launchTemplateId><version>1</version></launchTemplateSpecification>
        <overrides><instanceType>c5.large</instanceType><subnetId>subnet-aaa</subnetId></overrides>
      </launchTemplateAndOverrides>
      <lifecycle>spot</lifecycle>
    </item>
  </errorSet>
  <fleetInstanceSet>
    <item>
      <instanceIds><item>i-0aaa</item><item>i-0bbb</item></instanceIds>
      <instanceType>c5a.large</instanceType>
      <lifecycle>spot</lifecycle>
    </item>
  </fleetInstanceSet>
</CreateFleetResponse>)";

} // namespace

TEST_GROUP(Ec2Responses){};

TEST(Ec2Responses, RunInstancesFixture)
{
    auto instances = parse_run_instances(provider_fixture("ec2/run_instances.xml"));
    LONGS_EQUAL(1, instances.size());
    STRCMP_EQUAL("i-2ba64342", instances[0].id.c_str());
    STRCMP_EQUAL("pending", instances[0].state.c_str());
    STRCMP_EQUAL("m1.small", instances[0].instance_type.c_str());
    STRCMP_EQUAL("", instances[0].lifecycle.c_str());
}

TEST(Ec2Responses, RunInstancesSpotFixtureReportsLifecycle)
{
    auto instances = parse_run_instances(provider_fixture("ec2/run_instances_spot.xml"));
    STRCMP_EQUAL("i-2ba64344", instances[0].id.c_str());
    STRCMP_EQUAL("spot", instances[0].lifecycle.c_str());
}

TEST(Ec2Responses, DescribeInstancesFixtureReadsOnlyEachInstancesOwnTags)
{
    DescribeInstancesPage page = parse_describe_instances(provider_fixture("ec2/describe_instances.xml"));
    LONGS_EQUAL(2, page.instances.size());
    const Ec2Instance& a = page.instances[0];
    STRCMP_EQUAL("i-4382922a", a.id.c_str());
    STRCMP_EQUAL("stopped", a.state.c_str());
    STRCMP_EQUAL("10.211.11.211", a.private_ip.c_str());
    STRCMP_EQUAL("Client.UserInitiatedShutdown", a.state_reason_code.c_str());
    LONGS_EQUAL(0, a.tags.size());
    const Ec2Instance& b = page.instances[1];
    STRCMP_EQUAL("i-8474834a", b.id.c_str());
    STRCMP_EQUAL("172.16.9.139", b.private_ip.c_str());
    LONGS_EQUAL(2, b.tags.size());
    STRCMP_EQUAL("Test Server 2", b.tags.at("Name").c_str());
    STRCMP_EQUAL("VPC Test", b.tags.at("Group").c_str());
    STRCMP_EQUAL("", page.next_token.c_str());
}

TEST(Ec2Responses, DescribeInstancesCarriesNextToken)
{
    DescribeInstancesPage page = parse_describe_instances(
        "<DescribeInstancesResponse xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\"><reservationSet/>"
        "<nextToken>eyJ2IjoiMiJ9</nextToken></DescribeInstancesResponse>");
    LONGS_EQUAL(0, page.instances.size());
    STRCMP_EQUAL("eyJ2IjoiMiJ9", page.next_token.c_str());
}

TEST(Ec2Responses, TerminateInstancesFixture)
{
    auto states = parse_terminate_instances(provider_fixture("ec2/terminate_instances.xml"));
    LONGS_EQUAL(1, states.size());
    STRCMP_EQUAL("shutting-down", states.at("i-4382922a").c_str());
}

TEST(Ec2Responses, ErrorResponseFixtures)
{
    auto errors = parse_error_response(provider_fixture("ec2/run_instances_idem_mismatch.xml"));
    LONGS_EQUAL(1, errors.size());
    STRCMP_EQUAL("IdempotentParameterMismatch", errors[0].code.c_str());
    CHECK(errors[0].message.rfind("Arguments on this idempotent request", 0) == 0);
    errors = parse_error_response(provider_fixture("ec2/describe_key_pairs_doesnt_exist.xml"));
    STRCMP_EQUAL("InvalidKeyPair.NotFound", errors[0].code.c_str());
    STRCMP_EQUAL("The key pair 'test-key-pair' does not exist", errors[0].message.c_str());
}

TEST(Ec2Responses, CreateFleetPartialSuccess)
{
    CreateFleetResult r = parse_create_fleet(create_fleet_partial);
    STRCMP_EQUAL("fleet-0a1b2c3d-4e5f-6789-abcd-ef0123456789", r.fleet_id.c_str());
    LONGS_EQUAL(1, r.instances.size());
    LONGS_EQUAL(2, r.instances[0].instance_ids.size());
    STRCMP_EQUAL("i-0bbb", r.instances[0].instance_ids[1].c_str());
    STRCMP_EQUAL("c5a.large", r.instances[0].instance_type.c_str());
    LONGS_EQUAL(1, r.errors.size());
    STRCMP_EQUAL("InsufficientInstanceCapacity", r.errors[0].code.c_str());
    STRCMP_EQUAL("c5.large", r.errors[0].instance_type.c_str());
    STRCMP_EQUAL("subnet-aaa", r.errors[0].subnet_id.c_str());
}

TEST(Ec2Responses, RejectsMalformedAndUnexpectedDocuments)
{
    auto run = [](const std::string& x) { parse_run_instances(x); };
    STRCMP_EQUAL("RunInstancesResponse: not well-formed XML (line 1)", error_of(run, "<RunInstancesResponse>").c_str());
    STRCMP_EQUAL("RunInstancesResponse: root element is <Response>",
                 error_of(run, provider_fixture("ec2/run_instances_idem_mismatch.xml")).c_str());
    STRCMP_EQUAL("RunInstancesResponse instancesSet item 1: missing <instanceId>",
                 error_of(run, "<RunInstancesResponse><instancesSet><item><instanceState><name>pending</name>"
                               "</instanceState></item></instancesSet></RunInstancesResponse>")
                     .c_str());
    STRCMP_EQUAL("RunInstancesResponse instancesSet item 1 (i-1) instanceState: missing <name>",
                 error_of(run, "<RunInstancesResponse><instancesSet><item><instanceId>i-1</instanceId>"
                               "</item></instancesSet></RunInstancesResponse>")
                     .c_str());
    auto err = [](const std::string& x) { parse_error_response(x); };
    STRCMP_EQUAL("Response: no <Errors><Error> element", error_of(err, "<Response><Errors/></Response>").c_str());
    auto fleet = [](const std::string& x) { parse_create_fleet(x); };
    STRCMP_EQUAL("CreateFleetResponse fleetInstanceSet item 1: instanceIds item 'x' is not an instance id",
                 error_of(fleet, "<CreateFleetResponse><fleetInstanceSet><item><instanceIds><item>x</item>"
                                 "</instanceIds></item></fleetInstanceSet></CreateFleetResponse>")
                     .c_str());
}

TEST(Ec2Responses, DoesNotExpandExternalEntities)
{
    auto run = [](const std::string& x) { parse_run_instances(x); };
    std::string xxe = "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
                      "<RunInstancesResponse><instancesSet><item><instanceId>&x;</instanceId><instanceState>"
                      "<name>pending</name></instanceState></item></instancesSet></RunInstancesResponse>";
    STRCMP_EQUAL("RunInstancesResponse instancesSet item 1: missing <instanceId>", error_of(run, xxe).c_str());
}

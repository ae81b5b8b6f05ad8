#include "provider/aws/ec2_query.hpp"

#include <algorithm>
#include <functional>
#include <string>

#include <CppUTest/TestHarness.h>

using namespace burst;

namespace {

std::string value(const Ec2Params& p, const std::string& key)
{
    auto it = std::find_if(p.begin(), p.end(), [&](const auto& kv) { return kv.first == key; });
    return it == p.end() ? "<absent>" : it->second;
}

InstanceTags owner() { return {"hpc1", "", "burstd-7"}; }

RunInstancesSpec run_spec()
{
    RunInstancesSpec s;
    s.launch_template = {"lt-0abc", "", "$Latest"};
    s.instance_type = "c5.xlarge";
    s.subnet_id = "subnet-1";
    s.node = "cloud-c5-001";
    s.tags = owner();
    s.client_token = "ledger-42";
    return s;
}

std::string error_of(const std::function<void()>& f)
{
    try {
        f();
    } catch (const Ec2RequestError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST_GROUP(Ec2Query){};

TEST(Ec2Query, RunInstancesOnDemand)
{
    Ec2Params p = run_instances_params(run_spec());
    STRCMP_EQUAL("RunInstances", value(p, "Action").c_str());
    STRCMP_EQUAL("2016-11-15", value(p, "Version").c_str());
    STRCMP_EQUAL("lt-0abc", value(p, "LaunchTemplate.LaunchTemplateId").c_str());
    STRCMP_EQUAL("$Latest", value(p, "LaunchTemplate.Version").c_str());
    STRCMP_EQUAL("c5.xlarge", value(p, "InstanceType").c_str());
    STRCMP_EQUAL("subnet-1", value(p, "SubnetId").c_str());
    STRCMP_EQUAL("1", value(p, "MinCount").c_str());
    STRCMP_EQUAL("1", value(p, "MaxCount").c_str());
    STRCMP_EQUAL("ledger-42", value(p, "ClientToken").c_str());
    STRCMP_EQUAL("<absent>", value(p, "InstanceMarketOptions.MarketType").c_str());
    STRCMP_EQUAL("instance", value(p, "TagSpecification.1.ResourceType").c_str());
    STRCMP_EQUAL("slurm-burst:cluster", value(p, "TagSpecification.1.Tag.1.Key").c_str());
    STRCMP_EQUAL("hpc1", value(p, "TagSpecification.1.Tag.1.Value").c_str());
    STRCMP_EQUAL("slurm-burst:burstd-id", value(p, "TagSpecification.1.Tag.2.Key").c_str());
    STRCMP_EQUAL("burstd-7", value(p, "TagSpecification.1.Tag.2.Value").c_str());
    STRCMP_EQUAL("slurm-burst:node", value(p, "TagSpecification.1.Tag.3.Key").c_str());
    STRCMP_EQUAL("cloud-c5-001", value(p, "TagSpecification.1.Tag.3.Value").c_str());
    STRCMP_EQUAL("volume", value(p, "TagSpecification.2.ResourceType").c_str());
}

TEST(Ec2Query, RunInstancesSpotUsesMarketOptions)
{
    RunInstancesSpec s = run_spec();
    s.spot = true;
    s.launch_template = {"", "burst-nodes", ""};
    Ec2Params p = run_instances_params(s);
    STRCMP_EQUAL("spot", value(p, "InstanceMarketOptions.MarketType").c_str());
    STRCMP_EQUAL("one-time", value(p, "InstanceMarketOptions.SpotOptions.SpotInstanceType").c_str());
    STRCMP_EQUAL("terminate", value(p, "InstanceMarketOptions.SpotOptions.InstanceInterruptionBehavior").c_str());
    STRCMP_EQUAL("burst-nodes", value(p, "LaunchTemplate.LaunchTemplateName").c_str());
    STRCMP_EQUAL("<absent>", value(p, "LaunchTemplate.Version").c_str());
}

TEST(Ec2Query, RunInstancesValidatesItsInput)
{
    RunInstancesSpec s = run_spec();
    s.launch_template = {"lt-1", "name", ""};
    STRCMP_EQUAL("RunInstances: give exactly one of launch template id or name",
                 error_of([&] { run_instances_params(s); }).c_str());
    s = run_spec();
    s.client_token = std::string(65, 'x');
    STRCMP_EQUAL("RunInstances: client token must be 1..64 characters",
                 error_of([&] { run_instances_params(s); }).c_str());
    s = run_spec();
    s.tags.burstd_id.clear();
    STRCMP_EQUAL("RunInstances: burstd-id tag is empty", error_of([&] { run_instances_params(s); }).c_str());
}

TEST(Ec2Query, CreateFleetCrossesTypesWithSubnets)
{
    CreateFleetSpec s;
    s.launch_template = {"lt-0abc", "", "3"};
    s.instance_types = {"c5.large", "c5a.large"};
    s.subnet_ids = {"subnet-a", "subnet-b"};
    s.target_capacity = 4;
    s.spot = true;
    s.tags = owner();
    s.client_token = "fleet-1";
    Ec2Params p = create_fleet_params(s);
    STRCMP_EQUAL("CreateFleet", value(p, "Action").c_str());
    STRCMP_EQUAL("instant", value(p, "Type").c_str());
    STRCMP_EQUAL("lt-0abc", value(p, "LaunchTemplateConfigs.1.LaunchTemplateSpecification.LaunchTemplateId").c_str());
    STRCMP_EQUAL("c5.large", value(p, "LaunchTemplateConfigs.1.Overrides.2.InstanceType").c_str());
    STRCMP_EQUAL("subnet-b", value(p, "LaunchTemplateConfigs.1.Overrides.2.SubnetId").c_str());
    STRCMP_EQUAL("c5a.large", value(p, "LaunchTemplateConfigs.1.Overrides.4.InstanceType").c_str());
    STRCMP_EQUAL("<absent>", value(p, "LaunchTemplateConfigs.1.Overrides.5.InstanceType").c_str());
    STRCMP_EQUAL("4", value(p, "TargetCapacitySpecification.TotalTargetCapacity").c_str());
    STRCMP_EQUAL("4", value(p, "TargetCapacitySpecification.SpotTargetCapacity").c_str());
    STRCMP_EQUAL("spot", value(p, "TargetCapacitySpecification.DefaultTargetCapacityType").c_str());
    s.spot = false;
    p = create_fleet_params(s);
    STRCMP_EQUAL("4", value(p, "TargetCapacitySpecification.OnDemandTargetCapacity").c_str());
    STRCMP_EQUAL("on-demand", value(p, "TargetCapacitySpecification.DefaultTargetCapacityType").c_str());
    STRCMP_EQUAL("<absent>", value(p, "TargetCapacitySpecification.SpotTargetCapacity").c_str());
}

TEST(Ec2Query, DescribeInstancesFiltersByOwnerTagsAndPaginates)
{
    Ec2Params first = describe_instances_params(owner(), "");
    STRCMP_EQUAL("tag:slurm-burst:cluster", value(first, "Filter.1.Name").c_str());
    STRCMP_EQUAL("hpc1", value(first, "Filter.1.Value.1").c_str());
    STRCMP_EQUAL("tag:slurm-burst:burstd-id", value(first, "Filter.2.Name").c_str());
    STRCMP_EQUAL("instance-state-name", value(first, "Filter.3.Name").c_str());
    STRCMP_EQUAL("<absent>", value(first, "NextToken").c_str());
    STRCMP_EQUAL("tok", value(describe_instances_params(owner(), "tok"), "NextToken").c_str());
}

TEST(Ec2Query, TerminateInstancesBatchesAtMostAThousand)
{
    std::vector<std::string> ids;
    for (int i = 0; i < 2001; ++i)
        ids.push_back("i-" + std::to_string(i));
    auto batches = terminate_instances_params(ids);
    LONGS_EQUAL(3, batches.size());
    LONGS_EQUAL(2 + 1000, batches[0].size());
    LONGS_EQUAL(2 + 1, batches[2].size());
    STRCMP_EQUAL("i-1000", value(batches[1], "InstanceId.1").c_str());
    STRCMP_EQUAL("i-2000", value(batches[2], "InstanceId.1").c_str());
    STRCMP_EQUAL("TerminateInstances: 'vol-1' is not an instance id (i-...)",
                 error_of([] { terminate_instances_params({"vol-1"}); }).c_str());
}

TEST(Ec2Query, FormBodyUsesSigV4Encoding)
{
    STRCMP_EQUAL("Action=RunInstances&LaunchTemplate.Version=%24Latest&Tag.1.Value=a%20b%2Fc~",
                 ec2_form_body({{"Action", "RunInstances"}, {"LaunchTemplate.Version", "$Latest"},
                                {"Tag.1.Value", "a b/c~"}})
                     .c_str());
}

#include "provider/aws/ec2_query.hpp"

#include "provider/cloud/uri_encoding.hpp"

namespace burst {

const char ec2_tag_cluster[] = "slurm-burst:cluster";
const char ec2_tag_node[] = "slurm-burst:node";
const char ec2_tag_burstd_id[] = "slurm-burst:burstd-id";

namespace {

const char api_version[] = "2016-11-15";
const size_t max_client_token = 64;

Ec2Params action(const char* name) { return {{"Action", name}, {"Version", api_version}}; }

void require(bool ok, const std::string& what)
{
    if (!ok)
        throw Ec2RequestError(what);
}

void require_owner(const InstanceTags& tags, const char* request)
{
    require(!tags.cluster.empty(), std::string(request) + ": cluster tag is empty");
    require(!tags.burstd_id.empty(), std::string(request) + ": burstd-id tag is empty");
}

void add_launch_template(Ec2Params& p, const std::string& prefix, const Ec2LaunchTemplate& lt, const char* request)
{
    require(lt.id.empty() != lt.name.empty(),
            std::string(request) + ": give exactly one of launch template id or name");
    if (!lt.id.empty())
        p.emplace_back(prefix + "LaunchTemplateId", lt.id);
    else
        p.emplace_back(prefix + "LaunchTemplateName", lt.name);
    if (!lt.version.empty())
        p.emplace_back(prefix + "Version", lt.version);
}

void add_client_token(Ec2Params& p, const std::string& token, const char* request)
{
    require(!token.empty() && token.size() <= max_client_token,
            std::string(request) + ": client token must be 1.." + std::to_string(max_client_token) +
                " characters");
    for (unsigned char c : token)
        require(c >= 0x21 && c < 0x7f, std::string(request) + ": client token must be printable ASCII");
    p.emplace_back("ClientToken", token);
}

void add_tag_specification(Ec2Params& p, int index, const char* resource,
                           const std::vector<std::pair<std::string, std::string>>& tags)
{
    const std::string prefix = "TagSpecification." + std::to_string(index) + ".";
    p.emplace_back(prefix + "ResourceType", resource);
    int n = 1;
    for (const auto& [key, value] : tags) {
        const std::string tag = prefix + "Tag." + std::to_string(n++) + ".";
        p.emplace_back(tag + "Key", key);
        p.emplace_back(tag + "Value", value);
    }
}

std::vector<std::pair<std::string, std::string>> owner_tags(const InstanceTags& t)
{
    return {{ec2_tag_cluster, t.cluster}, {ec2_tag_burstd_id, t.burstd_id}};
}

} // namespace

Ec2Params run_instances_params(const RunInstancesSpec& spec)
{
    require_owner(spec.tags, "RunInstances");
    require(!spec.node.empty(), "RunInstances: node name is empty");
    require(!spec.instance_type.empty(), "RunInstances: instance type is empty");
    Ec2Params p = action("RunInstances");
    add_launch_template(p, "LaunchTemplate.", spec.launch_template, "RunInstances");
    p.emplace_back("InstanceType", spec.instance_type);
    if (!spec.subnet_id.empty())
        p.emplace_back("SubnetId", spec.subnet_id);
    p.emplace_back("MinCount", "1");
    p.emplace_back("MaxCount", "1");
    if (spec.spot) {
        p.emplace_back("InstanceMarketOptions.MarketType", "spot");
        // A reclaimed node is replaced by burstd, never restarted by EC2.
        p.emplace_back("InstanceMarketOptions.SpotOptions.SpotInstanceType", "one-time");
        p.emplace_back("InstanceMarketOptions.SpotOptions.InstanceInterruptionBehavior", "terminate");
    }
    add_client_token(p, spec.client_token, "RunInstances");
    auto tags = owner_tags(spec.tags);
    tags.emplace_back(ec2_tag_node, spec.node);
    tags.emplace_back("Name", spec.node);
    add_tag_specification(p, 1, "instance", tags);
    add_tag_specification(p, 2, "volume", tags);
    return p;
}

Ec2Params create_fleet_params(const CreateFleetSpec& spec)
{
    require_owner(spec.tags, "CreateFleet");
    require(spec.target_capacity >= 1, "CreateFleet: target capacity must be at least 1");
    require(!spec.instance_types.empty(), "CreateFleet: at least one instance type is required");
    require(spec.min_target_capacity >= 0 && spec.min_target_capacity <= spec.target_capacity &&
                spec.min_target_capacity <= 1000,
            "CreateFleet: minimum target capacity must be between 0 and the target capacity, at most 1000");
    Ec2Params p = action("CreateFleet");
    p.emplace_back("Type", "instant");
    add_launch_template(p, "LaunchTemplateConfigs.1.LaunchTemplateSpecification.", spec.launch_template,
                        "CreateFleet");
    std::vector<std::string> subnets = spec.subnet_ids;
    if (subnets.empty())
        subnets.emplace_back();
    int n = 1;
    for (const auto& type : spec.instance_types) {
        require(!type.empty(), "CreateFleet: empty instance type in overrides");
        for (const auto& subnet : subnets) {
            const std::string o = "LaunchTemplateConfigs.1.Overrides." + std::to_string(n++) + ".";
            p.emplace_back(o + "InstanceType", type);
            if (!subnet.empty())
                p.emplace_back(o + "SubnetId", subnet);
        }
    }
    const std::string total = std::to_string(spec.target_capacity);
    p.emplace_back("TargetCapacitySpecification.TotalTargetCapacity", total);
    if (spec.spot) {
        p.emplace_back("TargetCapacitySpecification.SpotTargetCapacity", total);
        p.emplace_back("TargetCapacitySpecification.DefaultTargetCapacityType", "spot");
        p.emplace_back("SpotOptions.AllocationStrategy", "price-capacity-optimized");
    } else {
        p.emplace_back("TargetCapacitySpecification.OnDemandTargetCapacity", total);
        p.emplace_back("TargetCapacitySpecification.DefaultTargetCapacityType", "on-demand");
        p.emplace_back("OnDemandOptions.AllocationStrategy", "lowest-price");
    }
    if (spec.min_target_capacity > 0) {
        const std::string options = spec.spot ? "SpotOptions." : "OnDemandOptions.";
        p.emplace_back(options + "MinTargetCapacity", std::to_string(spec.min_target_capacity));
        p.emplace_back(options + "SingleInstanceType", "true");
        p.emplace_back(options + "SingleAvailabilityZone", "true");
    }
    add_client_token(p, spec.client_token, "CreateFleet");
    auto tags = owner_tags(spec.tags);
    if (!spec.tags.node.empty()) {
        tags.emplace_back(ec2_tag_node, spec.tags.node);
        tags.emplace_back("Name", spec.tags.node);
    }
    add_tag_specification(p, 1, "instance", tags);
    return p;
}

Ec2Params describe_instances_params(const InstanceTags& owner, const std::string& next_token)
{
    require_owner(owner, "DescribeInstances");
    Ec2Params p = action("DescribeInstances");
    p.emplace_back("Filter.1.Name", std::string("tag:") + ec2_tag_cluster);
    p.emplace_back("Filter.1.Value.1", owner.cluster);
    p.emplace_back("Filter.2.Name", std::string("tag:") + ec2_tag_burstd_id);
    p.emplace_back("Filter.2.Value.1", owner.burstd_id);
    p.emplace_back("Filter.3.Name", "instance-state-name");
    int n = 1;
    // shutting-down is kept so a spot reclaim is seen before the instance vanishes.
    for (const char* state : {"pending", "running", "stopping", "stopped", "shutting-down"})
        p.emplace_back("Filter.3.Value." + std::to_string(n++), state);
    p.emplace_back("MaxResults", "1000");
    if (!next_token.empty())
        p.emplace_back("NextToken", next_token);
    return p;
}

std::vector<Ec2Params> terminate_instances_params(const std::vector<std::string>& instance_ids, size_t batch)
{
    require(batch >= 1 && batch <= 1000, "TerminateInstances: batch size must be 1..1000");
    std::vector<Ec2Params> out;
    for (size_t i = 0; i < instance_ids.size(); i += batch) {
        Ec2Params p = action("TerminateInstances");
        for (size_t j = i; j < instance_ids.size() && j < i + batch; ++j) {
            require(instance_ids[j].rfind("i-", 0) == 0,
                    "TerminateInstances: '" + instance_ids[j] + "' is not an instance id (i-...)");
            p.emplace_back("InstanceId." + std::to_string(j - i + 1), instance_ids[j]);
        }
        out.push_back(std::move(p));
    }
    return out;
}

std::string ec2_form_body(const Ec2Params& params)
{
    std::string body;
    for (const auto& [k, v] : params) {
        if (!body.empty())
            body += '&';
        body += uri_encode(k) + "=" + uri_encode(v);
    }
    return body;
}

} // namespace burst

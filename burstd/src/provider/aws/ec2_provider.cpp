#include "provider/aws/ec2_provider.hpp"

#include "provider/aws/ec2_fleet_launcher.hpp"
#include "provider/aws/ec2_responses.hpp"

#include <set>
#include <utility>

namespace burst {

namespace {

// A page cap guards against a server that keeps returning a next token.
const int max_pages = 1000;

ProviderError malformed(const std::string& action, const std::exception& e)
{
    return {ProviderErrorKind::Transient, "EC2 " + action + ": malformed response: " + e.what(), 0};
}

} // namespace

Ec2Provider::Ec2Provider(Ec2Client& client, Ec2ProviderConfig config) : client_(client), config_(std::move(config))
{
}

std::vector<LaunchResult> Ec2Provider::launch(const std::vector<LaunchRequest>& requests)
{
    if (config_.uses_fleet())
        return Ec2FleetLauncher(client_, config_).launch(requests);
    std::vector<LaunchResult> results;
    for (const auto& r : requests) {
        LaunchResult result;
        result.node = r.node;
        RunInstancesSpec spec;
        spec.launch_template = config_.launch_template;
        spec.instance_type = r.instance_type;
        spec.subnet_id = config_.run_instances_subnet();
        spec.spot = r.spot;
        spec.node = r.node;
        spec.tags = r.tags;
        spec.client_token = r.idempotency_token;
        Ec2Params params;
        try {
            params = run_instances_params(spec);
        } catch (const Ec2RequestError& e) {
            result.error = {ProviderErrorKind::Invalid, e.what(), 0};
            results.push_back(std::move(result));
            continue;
        }
        Ec2Reply reply = client_.call(params);
        if (reply.error) {
            result.error = reply.error;
        } else {
            try {
                Ec2Instance instance = parse_run_instances(reply.body).front();
                result.provider_id = instance.id;
                result.address = instance.private_ip;
            } catch (const XmlError& e) {
                result.error = malformed("RunInstances", e);
            }
        }
        results.push_back(std::move(result));
    }
    return results;
}

ListResult Ec2Provider::list(const InstanceTags& owner)
{
    ListResult out;
    std::string token;
    std::set<std::string> seen_tokens;
    for (int page = 0; page < max_pages; ++page) {
        Ec2Params params;
        try {
            params = describe_instances_params(owner, token);
        } catch (const Ec2RequestError& e) {
            out.error = {ProviderErrorKind::Invalid, e.what(), 0};
            return out;
        }
        Ec2Reply reply = client_.call(params);
        if (reply.error) {
            out.error = reply.error;
            return out;
        }
        DescribeInstancesPage parsed;
        try {
            parsed = parse_describe_instances(reply.body);
        } catch (const XmlError& e) {
            out.error = malformed("DescribeInstances", e);
            return out;
        }
        for (const auto& i : parsed.instances) {
            ProviderInstance p;
            p.provider_id = i.id;
            auto node = i.tags.find(ec2_tag_node);
            p.node = node == i.tags.end() ? std::string() : node->second;
            p.state = i.state;
            p.address = i.private_ip;
            p.gone = i.state == "shutting-down" || i.state == "terminated";
            p.reclaimed = i.state_reason_code == "Server.SpotInstanceTermination";
            out.instances.push_back(std::move(p));
        }
        if (parsed.next_token.empty())
            return out;
        if (!seen_tokens.insert(parsed.next_token).second) {
            out.error = {ProviderErrorKind::Transient, "EC2 DescribeInstances: repeated NextToken", 0};
            return out;
        }
        token = parsed.next_token;
    }
    out.error = {ProviderErrorKind::Transient,
                 "EC2 DescribeInstances: more than " + std::to_string(max_pages) + " pages", 0};
    return out;
}

std::map<std::string, ProviderError> Ec2Provider::terminate(const std::vector<std::string>& provider_ids)
{
    std::map<std::string, ProviderError> errors;
    std::vector<Ec2Params> batches;
    try {
        batches = terminate_instances_params(provider_ids);
    } catch (const Ec2RequestError& e) {
        for (const auto& id : provider_ids)
            errors[id] = {ProviderErrorKind::Invalid, e.what(), 0};
        return errors;
    }
    size_t first = 0;
    for (const auto& params : batches) {
        const size_t count = params.size() - 2; // Action and Version precede the ids
        Ec2Reply reply = client_.call(params);
        std::map<std::string, std::string> states;
        ProviderError batch_error = reply.error;
        if (!batch_error) {
            try {
                states = parse_terminate_instances(reply.body);
            } catch (const XmlError& e) {
                batch_error = malformed("TerminateInstances", e);
            }
        }
        for (size_t i = first; i < first + count; ++i) {
            const std::string& id = provider_ids[i];
            if (batch_error)
                errors[id] = batch_error;
            else if (!states.count(id))
                errors[id] = {ProviderErrorKind::Transient, "EC2 TerminateInstances: " + id + " not in the response", 0};
        }
        first += count;
    }
    return errors;
}

} // namespace burst

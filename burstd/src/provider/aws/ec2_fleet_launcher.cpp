#include "provider/aws/ec2_fleet_launcher.hpp"

#include "provider/aws/ec2_error_classifier.hpp"
#include "provider/aws/ec2_responses.hpp"
#include "provider/cloud/sha256.hpp"

#include <map>
#include <tuple>

namespace burst {

namespace {

ProviderError malformed(const std::string& action, const std::exception& e)
{
    return {ProviderErrorKind::Transient, "EC2 " + action + ": malformed response: " + e.what(), 0};
}

// The first errorSet entry that is not a capacity shortage decides; if all
// are shortages the batch may move on to the next type.
ProviderError fleet_error(const std::vector<Ec2FleetError>& errors)
{
    ProviderError first_capacity;
    for (const auto& e : errors) {
        ProviderError p{classify_ec2_error(e.code, 0),
                        "EC2 CreateFleet: " + e.code + (e.instance_type.empty() ? "" : " for " + e.instance_type) +
                            (e.subnet_id.empty() ? "" : " in " + e.subnet_id) +
                            (e.message.empty() ? "" : ": " + e.message),
                        0};
        if (p.kind != ProviderErrorKind::Capacity)
            return p;
        if (!first_capacity)
            first_capacity = p;
    }
    return first_capacity;
}

} // namespace

std::string fleet_client_token(const std::vector<std::string>& node_tokens, const std::string& instance_type)
{
    std::string joined = instance_type;
    for (const auto& t : node_tokens)
        joined += '\n' + t;
    return hex_lower(sha256(joined)); // 64 characters, EC2's limit
}

Ec2FleetLauncher::Ec2FleetLauncher(Ec2Client& client, const Ec2ProviderConfig& config)
    : client_(client), config_(config)
{
}

std::vector<LaunchResult> Ec2FleetLauncher::launch(const std::vector<LaunchRequest>& requests)
{
    std::vector<LaunchResult> results(requests.size());
    // Owner tags go on the fleet request itself, so they must agree within a batch.
    using BatchKey = std::tuple<std::string, bool, bool, std::string, std::string>;
    std::map<BatchKey, std::vector<size_t>> batches;
    std::vector<BatchKey> order;
    for (size_t i = 0; i < requests.size(); ++i) {
        const auto& r = requests[i];
        results[i].node = r.node;
        auto key = std::make_tuple(r.instance_type, r.spot, r.all_or_nothing, r.tags.cluster, r.tags.burstd_id);
        auto& batch = batches[key];
        if (batch.empty())
            order.push_back(key);
        batch.push_back(i);
    }
    for (const auto& key : order)
        launch_batch(requests, batches[key], results);
    return results;
}

void Ec2FleetLauncher::launch_batch(const std::vector<LaunchRequest>& requests, const std::vector<size_t>& batch,
                                    std::vector<LaunchResult>& results)
{
    const LaunchRequest& first = requests[batch.front()];
    std::vector<std::string> types{first.instance_type};
    for (const auto& t : config_.fallback_instance_types)
        if (t != first.instance_type)
            types.push_back(t);

    std::vector<size_t> waiting = batch;
    ProviderError last_error;
    for (const auto& type : types) {
        if (waiting.empty())
            return;
        CreateFleetSpec spec;
        spec.launch_template = config_.launch_template;
        spec.instance_types = {type};
        spec.subnet_ids = config_.fleet_subnets();
        spec.target_capacity = static_cast<int>(waiting.size());
        if (first.all_or_nothing)
            spec.min_target_capacity = spec.target_capacity;
        spec.spot = first.spot;
        // EC2 tags a fleet's instances alike, and a tag call per node would
        // make a 1,000-node burst 1,001 calls: a fleet of one carries its
        // node's tags, a larger one only the owner's, and its instances are
        // known by their ids, which the ledger holds from the answer on.
        spec.tags = first.tags;
        spec.tags.node = waiting.size() == 1 ? requests[waiting.front()].node : "";
        std::vector<std::string> tokens;
        for (size_t i : waiting)
            tokens.push_back(requests[i].idempotency_token);
        spec.client_token = fleet_client_token(tokens, type);

        Ec2Params params;
        try {
            params = create_fleet_params(spec);
        } catch (const Ec2RequestError& e) {
            last_error = {ProviderErrorKind::Invalid, e.what(), 0};
            break;
        }
        Ec2Reply reply = client_.call(params);
        if (reply.error) {
            last_error = reply.error;
            if (reply.error.kind == ProviderErrorKind::Capacity)
                continue;
            break;
        }
        CreateFleetResult fleet;
        try {
            fleet = parse_create_fleet(reply.body);
        } catch (const XmlError& e) {
            last_error = malformed("CreateFleet", e);
            break;
        }
        std::vector<std::string> ids;
        for (const auto& group : fleet.instances)
            ids.insert(ids.end(), group.instance_ids.begin(), group.instance_ids.end());
        std::vector<size_t> left;
        size_t next_id = 0;
        for (size_t i : waiting) {
            if (next_id >= ids.size()) {
                left.push_back(i);
                continue;
            }
            results[i].provider_id = ids[next_id++];
        }
        waiting = std::move(left);
        if (waiting.empty())
            return;
        last_error = fleet_error(fleet.errors);
        if (!last_error)
            last_error = {ProviderErrorKind::Transient,
                          "EC2 CreateFleet: " + std::to_string(ids.size()) + " of " +
                              std::to_string(spec.target_capacity) + " instances and no error given",
                          0};
        if (last_error.kind != ProviderErrorKind::Capacity)
            break;
    }
    for (size_t i : waiting)
        results[i].error = last_error;
}

} // namespace burst

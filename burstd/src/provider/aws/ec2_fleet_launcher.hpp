#pragma once
// Launches nodes with CreateFleet (type instant): one fleet per batch of
// nodes that share an instance type and market, spread over the configured
// subnets, in one call: instances are handed out to the batch's nodes in
// order (a fleet of one node is tagged with it).  When EC2 delivers fewer
// instances than nodes because of a capacity shortage, the nodes left over
// are retried with the next fallback type, and whatever is still left gets
// the classified error.
// One job's nodes (LaunchRequest::all_or_nothing) are a fleet of their own
// with MinTargetCapacity = all of them, in one type and Availability Zone:
// EC2 launches them all or none.

#include "provider/aws/ec2_client.hpp"
#include "provider/aws/ec2_provider_config.hpp"
#include "provider/provider.hpp"

#include <cstddef>
#include <vector>

namespace burst {

// Instances burstd asks one CreateFleet for: EC2 caps an instant fleet's
// MinTargetCapacity at 1000, and one fleet per 1000 nodes keeps a reply a
// size EC2 answers within its timeouts.
constexpr std::size_t ec2_fleet_batch_limit = 1000;

class Ec2FleetLauncher {
public:
    Ec2FleetLauncher(Ec2Client& client, const Ec2ProviderConfig& config);

    // Results per node, in request order.
    std::vector<LaunchResult> launch(const std::vector<LaunchRequest>& requests);

private:
    // Fills results[i] for every index in `batch` (same type and market).
    void launch_batch(const std::vector<LaunchRequest>& requests, const std::vector<size_t>& batch,
                      std::vector<LaunchResult>& results);

    Ec2Client& client_;
    const Ec2ProviderConfig& config_;
};

// The CreateFleet ClientToken for a batch: a digest of the nodes' own
// idempotency tokens and the instance type, so a retried batch (same nodes,
// same type) is the same fleet request to EC2 and launches nothing twice.
std::string fleet_client_token(const std::vector<std::string>& node_tokens, const std::string& instance_type);

} // namespace burst

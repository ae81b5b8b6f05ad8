#pragma once
// Provider "aws": one RunInstances per node (MinCount=MaxCount=1, the
// ledger's idempotency token as ClientToken), or CreateFleet batches when
// several subnets or fallback types are configured (ec2_fleet_launcher.hpp);
// listing by owner tags with DescribeInstances pagination, termination in
// batches of up to 1000.

#include "provider/aws/ec2_client.hpp"
#include "provider/aws/ec2_fleet_launcher.hpp"
#include "provider/aws/ec2_provider_config.hpp"
#include "provider/aws/ec2_query.hpp"
#include "provider/provider.hpp"

#include <string>
#include <vector>

namespace burst {

class Ec2Provider final : public Provider {
public:
    Ec2Provider(Ec2Client& client, Ec2ProviderConfig config);

    std::string_view name() const override { return "aws"; }
    std::vector<LaunchResult> launch(const std::vector<LaunchRequest>& requests) override;
    // CreateFleet (type instant) takes a batch; RunInstances is one call per
    // node, each with its own node tag and client token.
    std::size_t launch_batch_limit() const override { return config_.uses_fleet() ? ec2_fleet_batch_limit : 1; }
    ListResult list(const InstanceTags& owner) override;
    std::map<std::string, ProviderError> terminate(const std::vector<std::string>& provider_ids) override;

private:
    Ec2Client& client_;
    Ec2ProviderConfig config_;
};

} // namespace burst

#pragma once
// What provider "aws" needs to know besides credentials: where to launch
// (launch template, subnets) and which instance types may stand in for a node
// group's own type when EC2 has no capacity for it.

#include "provider/aws/ec2_query.hpp"

#include <string>
#include <vector>

namespace burst {

struct Ec2ProviderConfig {
    Ec2LaunchTemplate launch_template;
    std::string subnet_id; // empty = the launch template's
    // Several subnets (Availability Zones) or any fallback type switch launch
    // from one RunInstances per node to CreateFleet (type instant), which lets
    // EC2 pick a subnet with capacity.
    std::vector<std::string> subnet_ids;
    // Tried in this order after the requested type, for the nodes still
    // without an instance, when EC2 reports a capacity shortage.  They must
    // match the node group's Slurm shape; burstd cannot check that.
    std::vector<std::string> fallback_instance_types;

    bool uses_fleet() const { return subnet_ids.size() > 1 || !fallback_instance_types.empty(); }
    // The subnet for RunInstances; empty = the launch template's.
    std::string run_instances_subnet() const
    {
        return subnet_id.empty() && !subnet_ids.empty() ? subnet_ids.front() : subnet_id;
    }
    // The subnets to spread a fleet over; empty = the launch template's.
    std::vector<std::string> fleet_subnets() const
    {
        if (!subnet_ids.empty())
            return subnet_ids;
        if (!subnet_id.empty())
            return {subnet_id};
        return {};
    }
};

} // namespace burst

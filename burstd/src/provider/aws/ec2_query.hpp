#pragma once
// EC2 Query API requests (API version 2016-11-15) as ordered parameter lists,
// and their application/x-www-form-urlencoded POST body.  Builders validate
// what they are given, so a misconfigured node group fails here with a clear
// message instead of as an opaque InvalidParameterValue from AWS.

#include "provider/provider.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace burst {

using Ec2Params = std::vector<std::pair<std::string, std::string>>;

class Ec2RequestError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// Tag keys every burstd instance carries (see InstanceTags).
extern const char ec2_tag_cluster[];
extern const char ec2_tag_node[];
extern const char ec2_tag_burstd_id[];

struct Ec2LaunchTemplate {
    std::string id;      // lt-...; or
    std::string name;    // the template's name
    std::string version; // "$Latest", "$Default" or a number; empty = the template's default
};

struct RunInstancesSpec {
    Ec2LaunchTemplate launch_template;
    std::string instance_type;
    std::string subnet_id; // empty = the template's
    bool spot = false;
    std::string node;
    InstanceTags tags;
    std::string client_token; // idempotency: at most one instance per token
};

struct CreateFleetSpec {
    Ec2LaunchTemplate launch_template;
    std::vector<std::string> instance_types; // overrides: every type in every subnet
    std::vector<std::string> subnet_ids;     // empty = the template's
    int target_capacity = 0;
    // When set, EC2 launches nothing unless it can launch this many, all of
    // one type in one Availability Zone (at most 1000; 0 = no minimum).
    int min_target_capacity = 0;
    bool spot = false;
    InstanceTags tags; // the owner's, and the node's when set (a fleet of one)
    std::string client_token;
};

Ec2Params run_instances_params(const RunInstancesSpec& spec);
Ec2Params create_fleet_params(const CreateFleetSpec& spec);
// Instances tagged with owner's cluster and burstd id, not yet terminated.
Ec2Params describe_instances_params(const InstanceTags& owner, const std::string& next_token);
// One request per at most `batch` ids (EC2 accepts up to 1000).
std::vector<Ec2Params> terminate_instances_params(const std::vector<std::string>& instance_ids,
                                                  size_t batch = 1000);

// "Action=...&Version=2016-11-15&..." with SigV4's percent-encoding.
std::string ec2_form_body(const Ec2Params& params);

} // namespace burst

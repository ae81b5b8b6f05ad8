#pragma once
// Parses EC2 Query API XML responses.  Each parser checks the root element
// and the fields burstd relies on, and throws XmlError naming the response
// and the missing or malformed field.

#include "provider/aws/xml_error.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace burst {

struct Ec2Instance {
    std::string id;
    std::string instance_type;
    std::string state;             // pending, running, shutting-down, terminated, stopping, stopped
    std::string private_ip;        // empty until assigned
    std::string lifecycle;         // "spot", "scheduled", or empty for on-demand
    std::string state_reason_code; // e.g. Server.SpotInstanceTermination
    std::map<std::string, std::string> tags;
};

struct Ec2ApiError {
    std::string code;
    std::string message;
};

struct DescribeInstancesPage {
    std::vector<Ec2Instance> instances;
    std::string next_token; // empty on the last page
};

struct Ec2FleetInstances {
    std::vector<std::string> instance_ids;
    std::string instance_type;
    std::string lifecycle;
};

struct Ec2FleetError {
    std::string code;
    std::string message;
    std::string instance_type; // the override that failed, when EC2 says
    std::string subnet_id;
};

struct CreateFleetResult {
    std::string fleet_id;
    std::vector<Ec2FleetInstances> instances;
    std::vector<Ec2FleetError> errors;
};

std::vector<Ec2Instance> parse_run_instances(std::string_view xml);
DescribeInstancesPage parse_describe_instances(std::string_view xml);
// instance id -> its state after the call
std::map<std::string, std::string> parse_terminate_instances(std::string_view xml);
CreateFleetResult parse_create_fleet(std::string_view xml);
// <Response><Errors><Error><Code>...; at least one error.
std::vector<Ec2ApiError> parse_error_response(std::string_view xml);

} // namespace burst

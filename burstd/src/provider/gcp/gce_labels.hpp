#pragma once
// Compute Engine label values allow only [a-z0-9_-] (at most 63 characters),
// but cluster and node names may have capitals, dots and more.  The label-safe
// encoding keeps a-z, 0-9 and '-' and writes every other byte as '_' plus two
// lower-case hex digits ("Node.1" -> "_4eode_2e1"), so it is reversible and
// two different names never share a label.

#include <optional>
#include <string>

namespace burst {

constexpr const char* kGceClusterLabel = "slurm-burst-cluster";
constexpr const char* kGceNodeLabel = "slurm-burst-node";
constexpr const char* kGceOwnerLabel = "slurm-burst-id";

std::string encode_gce_label(const std::string& value);
// nullopt if `label` is not an encoding's output.
std::optional<std::string> decode_gce_label(const std::string& label);
bool fits_gce_label(const std::string& value); // encoded length <= 63

// A valid instance name: [a-z]([-a-z0-9]{0,61}[a-z0-9])?
bool is_gce_instance_name(const std::string& name);

} // namespace burst

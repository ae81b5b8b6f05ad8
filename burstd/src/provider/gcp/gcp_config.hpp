#pragma once
// What the "gcp" provider launches and where.  Built from the provider
// section's keys by from_params(), which rejects unknown keys by name and any
// value it cannot use, so the factory reports a precise config error:
//
//   Project=my-project          (required)
//   Zone=us-central1-a  or  Zones=us-central1-a,us-central1-b   (one is required;
//                               instances, operations and lists are zonal; the
//                               first zone is the default, burstd falls back
//                               along the list on capacity errors)
//   Template=global/instanceTemplates/burst   sourceInstanceTemplate, or instead:
//   Image=projects/debian-cloud/global/images/family/debian-12
//   Network=global/networks/default   Subnetwork=regions/us-central1/subnetworks/s1 (optional)
//   MachineType=n2-standard-8   default when a request names no instance type
//   BulkInsert=yes|no           one instances.bulkInsert per launch of several nodes (default yes)
//   TokenSource=service-account|metadata   (default service-account: CredentialsFile= is the key JSON)
//   MetadataEndpoint=http://metadata.google.internal   with TokenSource=metadata; only that
//                               host or a loopback address (a test server) is accepted
//   OperationWait=120  PollInterval=2      seconds
//   ParallelDeletes=8           instances deleted at once (one per call)
//   Endpoint=https://compute.googleapis.com   API origin (a private endpoint or a test server)

#include "model/clock.hpp"
#include "provider/cloud/provider_params.hpp"

#include <stdexcept>
#include <cstddef>
#include <string>
#include <vector>

namespace burst {

class GcpConfigError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

enum class GcpTokenSource { ServiceAccount, Metadata };

struct GcpProviderConfig {
    std::string project;
    std::vector<std::string> zones; // never empty once read
    std::string instance_template;
    std::string image;
    std::string network;
    std::string subnetwork;
    std::string machine_type;
    bool bulk_insert = true;
    GcpTokenSource token_source = GcpTokenSource::ServiceAccount;
    Seconds operation_wait = 120;
    Seconds poll_interval = 2;
    std::size_t parallel_deletes = 8;
    std::string api_origin = "https://compute.googleapis.com";
    std::string metadata_origin = "http://metadata.google.internal";

    // Throws GcpConfigError naming the key and what was expected.
    static GcpProviderConfig from_params(const ProviderParams& params);
    // The keys from_params() knows.
    static std::vector<std::string> keys();
};

} // namespace burst

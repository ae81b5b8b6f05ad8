#pragma once
// What an OpenStack provider launches and where, besides who it is (the
// credentials file).  Comes from the provider's burstd.conf section:
//
//   Image=<uuid>              imageRef of every server (required)
//   Network=none|auto|<uuid>  (default none)
//   Interface=public          catalog interface of the compute endpoint
//   ScheduleWait=60  PollInterval=1   seconds
//   PageSize=100              servers per list page
//   BatchSize=1               servers one POST /servers asks for (1: a server per node,
//                             named after it; more: see NovaBatch)
//   ParallelDeletes=8         servers deleted at once
//   Zones=az1,az2             availability zones, preferred first (optional; without
//                             it Nova's default zone)
// plus the section's Region= (catalog region).

#include "model/clock.hpp"
#include "provider/cloud/provider_params.hpp"

#include <stdexcept>
#include <cstddef>
#include <string>
#include <vector>

namespace burst {

struct OpenStackSettings {
    std::string region;             // catalog region; empty = the first compute endpoint of the interface
    std::string interface = "public";
    std::string image;              // imageRef of every server
    std::string network = "none";   // "none", "auto" or a network uuid
    Seconds schedule_wait = 60;     // how long launch() waits for Nova's scheduler verdict; 0 = not at all
    Seconds poll_interval = 1;
    std::vector<std::string> zones; // availability zones, preferred first
    int page_size = 100;            // servers per list page
    std::size_t batch_size = 1;     // nodes one POST /servers creates (min_count/max_count)
    std::size_t parallel_deletes = 8;
};

class OpenStackSettingsError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// The keys openstack_settings_from_params() knows.
std::vector<std::string> openstack_settings_keys();

// Throws OpenStackSettingsError naming the key and what was expected.
OpenStackSettings openstack_settings_from_params(const ProviderParams& params, const std::string& region);

} // namespace burst

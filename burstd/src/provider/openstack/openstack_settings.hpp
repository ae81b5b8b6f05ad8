#pragma once
// What an OpenStack provider launches and where, besides who it is (the
// credentials file).  Comes from the provider's burstd.conf line.

#include "model/clock.hpp"

#include <string>

namespace burst {

struct OpenStackSettings {
    std::string region;             // catalog region; empty = the first compute endpoint of the interface
    std::string interface = "public";
    std::string image;              // imageRef of every server
    std::string network = "none";   // "none", "auto" or a network uuid
    Seconds schedule_wait = 60;     // how long launch() waits for Nova's scheduler verdict; 0 = not at all
    Seconds poll_interval = 1;
    int page_size = 100;            // servers per list page
};

} // namespace burst

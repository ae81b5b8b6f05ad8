#pragma once
// One export from the plugin: the whole visible state of the cluster at `time`.

#include "model/clock.hpp"
#include "model/job.hpp"
#include "model/node.hpp"
#include "model/partition.hpp"
#include "model/share.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace burst {

struct Snapshot {
    std::string cluster;
    std::uint64_t seq = 0;
    Time time = 0;
    std::vector<Job> jobs;
    std::vector<Node> nodes;
    std::vector<Partition> partitions;
    std::vector<Share> shares;

    // Partition `name`'s MaxTime (0: none, or no such partition).
    Seconds max_time_of(const std::string& name) const
    {
        for (const Partition& p : partitions)
            if (p.name == name)
                return p.max_time;
        return 0;
    }
};

} // namespace burst

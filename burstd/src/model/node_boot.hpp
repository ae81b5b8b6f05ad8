#pragma once
// A cloud node's boot as the policies measure it: request to running.

#include "model/clock.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace burst {

// A cloud node that came up: when its instance was asked for and when it
// ran.  A record with it running before it was asked for (a clock step) or
// never says nothing about boot times.
struct NodeBoot {
    std::string node_group;
    Time requested_at = 0;
    Time running_since = 0;

    bool plausible() const { return running_since > 0 && running_since >= requested_at; }
};

inline bool operator==(const NodeBoot& a, const NodeBoot& b)
{
    return a.node_group == b.node_group && a.requested_at == b.requested_at && a.running_since == b.running_since;
}
inline bool operator!=(const NodeBoot& a, const NodeBoot& b) { return !(a == b); }

// How many of each group's latest boots ClusterState carries (ClusterState::boots).
constexpr std::size_t kRecentBoots = 8;

// The last `per_group` plausible boots of each group among `boots`, by
// group name, then in the order they came up: what burstd's ledger hands the
// policies, and what MeasuredBootTimes reads whatever it is handed.
std::vector<NodeBoot> latest_boots(std::vector<NodeBoot> boots, std::size_t per_group);

} // namespace burst

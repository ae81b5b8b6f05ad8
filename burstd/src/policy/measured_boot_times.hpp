#pragma once
#include "model/cluster_state.hpp"
#include "model/node_group.hpp"

#include <deque>
#include <string>
#include <unordered_map>

namespace burst {

// How long each node group's nodes really take to boot: request to running,
// as HTA times its worker-pods, from the instances a policy sees.  What is
// measured outlives the instances (a scale-up from zero plans with it), and
// a group never measured has its configured boot time.  A site's configured
// BootTime is a guess that clouds prove wrong by minutes, while the
// policies that plan ahead (boot-window's window) or price a burst's boot
// wait (WaitingCostGate) need the real one.
class MeasuredBootTimes {
public:
    // Takes in every instance that came up since the last call: those whose
    // running_since is past the group's latest one seen.  A node that comes
    // up and closes between two calls, or that a clock step puts at or
    // before that mark, goes unmeasured.
    void observe(const ClusterState& state);
    // The group's latest measured boot time (HTA's), else its configured one.
    Seconds latest(const NodeGroup& group) const;
    // The median of the group's last kRecent measured boot times, else its
    // configured one: the expected boot of the next node.  A median, as a
    // node burstd saw come up late (across its own restart, say) would
    // skew a mean for kRecent boots.
    Seconds expected(const NodeGroup& group) const;

    static constexpr std::size_t kRecent = 8;

private:
    struct Measured {
        Time ready_at = -1;         // when the latest measured node came up
        std::deque<Seconds> recent; // oldest first, at most kRecent
        Seconds median = 0;         // of recent
    };
    std::unordered_map<std::string, Measured> by_group_;
};

} // namespace burst

#pragma once
#include "model/cluster_state.hpp"
#include "model/node_group.hpp"

#include <string>
#include <unordered_map>
#include <vector>

namespace burst {

// How long each node group's nodes really take to boot: request to running,
// as HTA times its worker-pods.  A site's configured BootTime is a guess that
// clouds prove wrong by minutes, while the policies that plan ahead
// (boot-window's window) or price a burst's boot wait (WaitingCostGate)
// need the real one.  Read from the boots the cluster state carries (the
// last few of each group, closed instances too, from burstd's ledger), so
// what was measured outlives the instances (a scale-up from zero plans with
// it) and a restart; a group never measured has its configured boot time.
class MeasuredBootTimes {
public:
    // Takes the boots of `state` (ClusterState::boots) in place of the
    // previous ones.  Kept, not worked out per question: the gate prices
    // every waiting job with it, and decisions come far less often.
    void observe(const ClusterState& state);
    // The group's latest measured boot time (HTA's), at most twice the
    // median of its recent ones (a single node seen up late would otherwise
    // stretch a window to its delay), else its configured one.
    Seconds latest(const NodeGroup& group) const;
    // The median of the group's last kRecent measured boot times, else its
    // configured one: the expected boot of the next node.  A median, as a
    // node seen up late (across a restart of burstd or slurmctld, say)
    // would skew a mean for kRecent boots.
    Seconds expected(const NodeGroup& group) const;

    static constexpr std::size_t kRecent = kRecentBoots;

private:
    struct Measured {
        Seconds latest = 0;
        Seconds median = 0;
    };
    std::vector<NodeBoot> observed_; // what by_group_ was worked out from
    std::unordered_map<std::string, Measured> by_group_;
};

} // namespace burst

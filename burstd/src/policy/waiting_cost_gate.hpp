#pragma once
#include "model/node_group.hpp"

#include <cstdint>

namespace burst {

// Issue 6's λ for the scale-up policies (threshold, boot-window), whose
// papers size the cloud without pricing waiting: a node a scale-up wants is
// hired only if the waiting it would absorb over one boot time, priced at
// λ money per waiting core-hour, exceeds what the node costs over that time
// (at least the group's minimum billed):
//   λ · c · wait / 3600  >  price_per_hour · max(min_billed, wait) / 3600
// where c is the waiting cores the node would take (whole nodes are filled
// first, so the last node may take fewer).  Break-even for a full node is
// λ = price per core-hour when the boot time is at least the minimum billed.
// λ = +∞ (the default) is no gate: the policy behaves as in its paper.
class WaitingCostGate {
public:
    explicit WaitingCostGate(double lambda) : lambda_(lambda) {}
    bool off() const;
    double lambda() const { return lambda_; }

    // Of `nodes` nodes of `group` wanted for `cores` waiting cores that would
    // otherwise wait `wait` seconds, how many are worth hiring.
    std::uint32_t worth(const NodeGroup& group, std::uint32_t nodes, std::uint64_t cores, Seconds wait) const;

private:
    double lambda_;
};

} // namespace burst

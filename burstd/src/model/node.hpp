#pragma once
// A Slurm node and its state flags as the exporter reports them.

#include <cstdint>
#include <string>
#include <vector>

namespace burst {

// Slurm keeps one base state and a set of flags; burstd needs both.
enum class NodeBaseState { Unknown, Idle, Allocated, Mixed, Down, Future };

enum NodeFlag : std::uint32_t {
    kNodeCloud = 1u << 0,
    kNodePoweredDown = 1u << 1,
    kNodePoweringUp = 1u << 2,
    kNodePoweringDown = 1u << 3,
    kNodePowerDownPending = 1u << 4, // POWER_DOWN requested, not yet started
    kNodeDrain = 1u << 5,            // DRAIN requested (DRAINING/DRAINED by base state)
    kNodeNotResponding = 1u << 6,
    kNodeCompleting = 1u << 7,
    kNodeFail = 1u << 8,
    kNodeReserved = 1u << 9,
    kNodeMaintenance = 1u << 10,
};

struct Node {
    std::string name;
    NodeBaseState base = NodeBaseState::Unknown;
    std::uint32_t flags = 0;
    std::uint32_t cpus = 0;
    std::uint32_t alloc_cpus = 0;
    std::uint64_t memory_mb = 0;
    std::uint64_t alloc_memory_mb = 0;
    std::vector<std::string> features;
    std::string gres; // as slurm.conf's Gres=
    std::vector<std::string> partitions;
    std::uint32_t weight = 1;
    std::string addr;

    bool has(NodeFlag f) const { return (flags & f) != 0; }
    bool cloud() const { return has(kNodeCloud); }
    // Up and able to take work now (possibly partially used).
    bool usable() const
    {
        return (base == NodeBaseState::Idle || base == NodeBaseState::Mixed ||
                base == NodeBaseState::Allocated) &&
               !(flags & (kNodePoweredDown | kNodePoweringUp | kNodePoweringDown | kNodeDrain |
                          kNodeNotResponding | kNodeFail));
    }
    std::uint32_t free_cpus() const { return alloc_cpus >= cpus ? 0 : cpus - alloc_cpus; }
};

} // namespace burst

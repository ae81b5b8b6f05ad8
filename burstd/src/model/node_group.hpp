#pragma once
// A set of CLOUD nodes that one provider backs with one kind of instance:
// the unit burstd hires in, prices and budgets (burstd.conf NodeGroup= lines).

#include "model/clock.hpp"
#include "model/group_recovery.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace burst {

enum class Billing { PerSecond, PerHour };

struct NodeGroup {
    // No quota: burstsim's group without max=, whose nodes it names itself,
    // without end.
    static constexpr std::uint32_t kUnlimited = std::numeric_limits<std::uint32_t>::max();

    std::string name;
    std::string provider;               // name of a Provider= section
    std::vector<std::string> nodes;     // expanded CLOUD node names, in hire order
    std::string partition;              // Slurm partition holding these nodes
    std::vector<std::string> instance_types; // first is preferred; later ones are fallbacks
    // Zones to launch in, preferred first; empty = the provider's Zones=.
    std::vector<std::string> zones;
    std::uint32_t cpus = 1;
    std::uint64_t memory_mb = 0;
    std::string gres;
    double price_per_hour = 0;          // site currency per instance-hour
    Billing billing = Billing::PerSecond;
    Seconds min_billed = 60;            // providers bill at least this much per instance
    Seconds boot_time = 120;            // expected launch-to-registered time
    // The longest a boot is billed before it is given up: burstd terminates
    // an instance still booting when Slurm gives it up at ResumeTimeout
    // (policy_cycle.cpp); burstsim draws no boot longer than
    // BootTime × (1 + jitter).  Set by them, not by burstd.conf; below
    // boot_time, boot_time.
    Seconds longest_boot = 0;
    std::uint32_t max_count = 0;        // 0 = as many as `nodes` lists and unlisted_nodes counts
    // Nodes of the group that `nodes` does not name, every one powered down
    // and never used: burstsim lists a node only once it first powers it
    // up, so nodes a replay never uses cost it nothing.  kUnlimited: no end.
    // burstd's groups name every node (0).
    std::uint32_t unlisted_nodes = 0;
    double speed = 1.0;                 // relative per-core speed (1 = like local nodes)
    bool spot = false;
    // Spot capacity taken back per instance-hour on average (burstsim draws
    // interruptions as a Poisson process; burstd only reports them).
    double interruptions_per_hour = 0;
    GroupRecovery recovery;             // backing off after failed launches

    // kUnlimited for an unlimited group.
    std::uint32_t capacity() const
    {
        const std::uint64_t listed = nodes.size();
        const auto all = std::uint32_t(std::min<std::uint64_t>(listed + unlisted_nodes, kUnlimited));
        return max_count == 0 || max_count > all ? all : max_count;
    }
    double price_per_cpu_second() const { return price_per_hour / 3600.0 / (cpus ? cpus : 1); }
    // What the budget cap bounds a boot by.
    Seconds boot_bound() const { return boot_time > longest_boot ? boot_time : longest_boot; }
};

} // namespace burst

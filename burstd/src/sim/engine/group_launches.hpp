#pragma once
// The outcome of every launch in the simulated node groups, and what burstd's
// GroupHealth circuit breaker makes of them.  The simulator asks here before
// it powers a cloud node up and reports registrations, where burstd's
// InstanceManager admits, launches and reports; each decision cycle it takes
// the breakers' hire limits into ClusterState::hire_limits as burstd's policy
// cycle does, so policies and expanders back off through the same code.
//
// A launch is refused while the group's breaker is open (no provider call);
// otherwise it fails for capacity when the group's CapacityShortage says so
// (the rate drawn from its own stream of the run's seed) and succeeds
// otherwise.  Outcomes are known at once: no probe is ever in flight between
// two calls.

#include "model/clock.hpp"
#include "model/node_group.hpp"
#include "policy/health/group_health.hpp"
#include "sim/engine/capacity_shortage.hpp"

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace burst {

enum class LaunchOutcome { Launched, CapacityFailure, Refused };

// Per node group and run.
struct GroupBackoff {
    std::uint64_t capacity_failures = 0; // launches that failed for capacity
    std::uint64_t refused_launches = 0;  // launches the open breaker refused
    std::uint64_t breaker_opened = 0;    // times the breaker opened
    std::uint64_t probes = 0;            // probe launches after a cool-down
    Seconds backed_off = 0;              // seconds the breaker was open and refusing, within the run
};

class GroupLaunches {
public:
    // `shortages` by group name; `origin` is the trace's first submission.
    GroupLaunches(const std::vector<NodeGroup>& groups, const std::map<std::string, CapacityShortage>& shortages,
                  std::uint64_t seed, Time origin);

    LaunchOutcome launch(std::size_t group, Time now);
    // A launched node booted and joined Slurm.
    void registered(std::size_t group, Time now);
    // Groups that may not hire freely now -> how many nodes they may.
    std::map<std::string, std::uint32_t> hire_limits(Time now) const;
    // Per group, in the order given; back-off is cut at `end`.
    std::vector<GroupBackoff> backoff(Time end) const;

private:
    struct Group {
        std::string name;
        CapacityShortage shortage;
        GroupHealth health;
        GroupBackoff stats;
        Time open_until = 0; // end of the latest open period counted
    };
    bool short_of_capacity(const Group& g, Time now);
    void count_opening(Group& g, Time now);

    std::vector<Group> groups_;
    std::mt19937_64 rng_;
    Time origin_;
};

} // namespace burst

#pragma once
// Where a node group's launch goes when capacity runs short: the candidate
// placements (instance type x zone) in a fixed order, and a memory of the
// placements that lately had no capacity.
//
// Order is type-major: every zone of the first instance type, in Zones=
// order, then every zone of the second type, and so on, because a preferred
// type in any zone beats a fallback type.  A placement that fails for
// capacity backs off for the group's CoolDown, doubled on every repeat up to
// MaxCoolDown (like the group breaker).  While it backs off it moves to the
// end of the order, keeping the relative order of such placements, so it is
// tried only after every other one failed; once its time is up it is back in
// its place and the next launch there is its probe: a success forgets it, a
// capacity error again doubles its wait.  Thread-safe.

#include "model/clock.hpp"
#include "model/group_recovery.hpp"

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace burst {

struct Placement {
    std::string instance_type; // empty = the provider's default
    std::string zone;          // empty = the provider's default
    bool operator==(const Placement& o) const { return instance_type == o.instance_type && zone == o.zone; }
};

// What burstctl status and the metrics show of one placement short of capacity.
struct PlacementBackoffView {
    std::string node_group;
    std::string instance_type;
    std::string zone;
    bool backing_off = false; // false: its time is up, the next launch there probes it
    Time until = 0;
    Seconds cool_down = 0;
    std::uint64_t shortages = 0; // capacity errors in a row
};

class PlacementBackoff {
public:
    // The type-major product of `types` and `zones`; an empty list stands for
    // the provider's default ("").
    static std::vector<Placement> candidates(const std::vector<std::string>& types,
                                             const std::vector<std::string>& zones);

    // `candidates` with the ones backing off at `now` moved to the end.
    std::vector<Placement> order(const std::string& group, const std::vector<Placement>& candidates, Time now) const;
    void short_of_capacity(const std::string& group, const Placement& where, const GroupRecovery& recovery, Time now);
    void launched(const std::string& group, const Placement& where);
    // Sorted by group, type, zone.
    std::vector<PlacementBackoffView> views(Time now) const;

private:
    struct Entry {
        Time until = 0;
        Seconds cool_down = 0;
        std::uint64_t shortages = 0;
    };
    using Key = std::tuple<std::string, std::string, std::string>; // group, type, zone

    mutable std::mutex mutex_;
    std::map<Key, Entry> entries_;
};

} // namespace burst

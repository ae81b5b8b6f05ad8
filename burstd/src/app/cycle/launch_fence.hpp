#pragma once
// Keeps Slurm from resuming the powered-down nodes of a node group that may
// not launch (breaker open, protected, quota, stopped).  Unfenced, a job that
// can only run in that group gets a node resumed by Slurm, refused by burstd
// and handed back, one requeue per round.  So those nodes are drained with a
// reason naming the breaker state (sinfo -R), and undrained when the group
// may launch again.  A group whose back-off has elapsed may launch one probe:
// that many powered-down nodes are left (or made) undrained for it.
//
// Only drains burstd set are cleared: the undrain itself goes through
// SlurmActuator::undrain_own, which checks Slurm's current reason against
// kFenceReasonPrefix.  After a restart burstd does not know which drains it
// set, so every drained node of its groups is a candidate once, and the
// reason check sorts them out.  Pure: plan() only decides.

#include "model/node.hpp"
#include "model/node_group.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace burst {

inline constexpr std::string_view kFenceReasonPrefix = "burstd: ";

struct FencePlan {
    std::map<std::string, std::vector<std::string>> drain; // reason -> nodes
    std::vector<std::string> undrain;
    bool empty() const { return drain.empty() && undrain.empty(); }
};

class LaunchFence {
public:
    // Why `group` may not launch, for the drain reason (prefix added here).
    using Why = std::function<std::string(const std::string& group)>;

    // `hire_limits` as GroupHealthBoard::hire_limits: absent = launches freely.
    FencePlan plan(const std::vector<NodeGroup>& groups, const std::vector<Node>& nodes,
                   const std::map<std::string, std::uint32_t>& hire_limits, const Why& why);
    // What the actuator did with a plan.
    void drained(const std::vector<std::string>& nodes);
    // Every node in `asked` that was not cleared is not (or no longer) ours.
    void undrain_done(const std::vector<std::string>& asked);

    const std::set<std::string>& fenced() const { return fenced_; }

private:
    std::set<std::string> fenced_; // drained by burstd, as far as it knows
    bool adopted_ = false;         // restart candidates taken in
};

} // namespace burst

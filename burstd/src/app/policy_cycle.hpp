#pragma once
// One burstd cycle: ClusterState from the latest snapshot, the configured
// node groups and the ledger's instances; the policy chain's Decision; each
// action applied through the Slurm actuator and logged with its reason.
// Groups that may not launch have their powered-down nodes drained first.  The
// last decisions are kept for `burstctl status`.  Every few cycles the
// instance manager reconciles ledger, providers and Slurm.

#include "app/burstd_config.hpp"
#include "app/daemon_seams.hpp"
#include "app/instance_manager.hpp"
#include "app/launch_fence.hpp"
#include "ledger/ledger.hpp"
#include "policy/policy.hpp"
#include "slurm/slurm_actuator.hpp"

#include <jansson.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace burst {

class PolicyConfigError;

// Builds the chain from burstd.conf Policy= lines; throws PolicyConfigError
// prefixed with the line's origin.
std::vector<std::unique_ptr<Policy>> make_policy_chain(const std::vector<PolicyConfig>& policies);

struct AppliedAction {
    Time time = 0;
    std::string action; // "route job 12 -> cloud", "power up c1"
    std::string reason;
    std::string error;  // empty when Slurm accepted it
};

class PolicyCycle {
public:
    PolicyCycle(std::vector<std::unique_ptr<Policy>> chain, Ledger& ledger, SlurmActuator& actuator,
                InstanceManager& instances, std::uint32_t reconcile_every);

    void run(const CycleContext& ctx);
    void observe(const JobEnd& end);
    // A new configuration (SIGHUP) brings a new chain.
    void replace_chain(std::vector<std::unique_ptr<Policy>> chain) { chain_ = std::move(chain); }
    // Adds decisions, nodes by state and instances to a status object.
    void report(json_t* status) const;

    static constexpr std::size_t kKeptActions = 50;

private:
    void apply(const Action& action, const ClusterState& state, const CycleContext& ctx);
    void unroute_from_stopped_groups(ClusterState& state, const CycleContext& ctx);
    // Drains the resumable nodes of groups that may not launch (LaunchFence).
    void fence_stopped_groups(ClusterState& state, const CycleContext& ctx);
    void remember(AppliedAction a);

    std::vector<std::unique_ptr<Policy>> chain_;
    Ledger& ledger_;
    SlurmActuator& actuator_;
    InstanceManager& instances_;
    std::uint32_t reconcile_every_;
    std::uint64_t runs_ = 0; // cycles that had a snapshot
    std::deque<AppliedAction> recent_;
    std::vector<std::string> last_notes_;
    std::vector<Node> last_nodes_;
    std::vector<NodeGroup> last_groups_;
    LaunchFence fence_;
};

} // namespace burst

#pragma once
// Where a decision cycle's actions take effect: burstd's sink drives Slurm,
// burstsim's drives its simulated site.  The cycle decides what and in which
// order; the sink only carries it out and says whether it could.

#include "model/cluster_state.hpp"
#include "policy/decision.hpp"

#include <string>
#include <string_view>

namespace burst {

class ActionSink {
public:
    virtual ~ActionSink() = default;
    // One link's decision, as the budget cap left it, before its actions are
    // applied in order (burstd launches a routed job's nodes at once unless
    // the same decision hires for its group).
    virtual void begin_decision(std::string_view policy, const Decision& decision)
    {
        (void)policy;
        (void)decision;
    }
    // Carries out one action on the site `state` describes.  Returns "" when
    // it took effect, else why not (the site said no, the job is gone...).
    // What took effect is reflected in `state` as the site will show it
    // (a routed job's partitions, a hired node powering up), so that the
    // chain's later links decide on the site as it now is.
    virtual std::string apply(const Action& action, ClusterState& state) = 0;
};

} // namespace burst

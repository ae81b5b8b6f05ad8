#include "policy/site/site_activity.hpp"

#include <algorithm>

namespace burst {

SiteActivity site_activity(const ClusterState& state)
{
    SiteActivity a;
    const auto& jobs = state.snapshot.jobs;
    a.jobs_waiting =
        std::any_of(jobs.begin(), jobs.end(), [](const Job& job) { return job.pending() && !job.blocked(); });
    const auto& nodes = state.snapshot.nodes;
    a.cloud_on = std::any_of(nodes.begin(), nodes.end(),
                             [](const Node& node) {
                                 return (node.cloud() && !node.has(kNodePoweredDown)) ||
                                        node.has(kNodePoweringUp) || node.has(kNodePoweringDown);
                             }) ||
                 std::any_of(state.instances.begin(), state.instances.end(), [](const Instance& instance) {
                     return instance.state != InstanceState::Terminated && instance.state != InstanceState::Failed;
                 });
    return a;
}

} // namespace burst

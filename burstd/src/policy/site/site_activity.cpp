#include "policy/site/site_activity.hpp"

#include <algorithm>

namespace burst {

bool SiteActivity::jobs_waiting() const
{
    if (!jobs_waiting_) {
        const auto& jobs = state_.snapshot.jobs;
        jobs_waiting_ =
            std::any_of(jobs.begin(), jobs.end(), [](const Job& job) { return job.pending() && !job.blocked(); });
    }
    return *jobs_waiting_;
}

bool SiteActivity::cloud_on() const
{
    if (!cloud_on_) {
        const auto& nodes = state_.snapshot.nodes;
        const auto& instances = state_.instances;
        cloud_on_ = std::any_of(nodes.begin(), nodes.end(),
                                [](const Node& node) {
                                    return (node.cloud() && !node.has(kNodePoweredDown)) ||
                                           node.has(kNodePoweringUp) || node.has(kNodePoweringDown);
                                }) ||
                    std::any_of(instances.begin(), instances.end(), [](const Instance& instance) {
                        return instance.state != InstanceState::Terminated &&
                               instance.state != InstanceState::Failed;
                    });
    }
    return *cloud_on_;
}

} // namespace burst

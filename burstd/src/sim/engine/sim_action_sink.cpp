#include "sim/engine/sim_action_sink.hpp"

#include "model/partition.hpp"

#include <variant>

namespace burst {

std::string SimActionSink::apply(const Action& action, ClusterState&)
{
    std::string error;
    if (const auto* r = std::get_if<RouteToCloud>(&action.what)) {
        error = route(*r);
    } else if (const auto* u = std::get_if<UnrouteJob>(&action.what)) {
        error = unroute(*u);
    } else if (const auto* h = std::get_if<HireNodes>(&action.what)) {
        error = hire(*h);
    } else if (const auto* r = std::get_if<ReleaseNodes>(&action.what)) {
        error = release(*r);
    } else if (const auto* t = std::get_if<SetJobThreads>(&action.what)) {
        error = set_threads(*t);
    } else if (const auto* k = std::get_if<KeepPlaceholders>(&action.what)) {
        bool changed = false;
        error = keep(*k, changed);
        if (error.empty() && !changed)
            return ""; // the pool as it was: no action, as burstd counts it
    }
    ++(error.empty() ? applied_ : rejected_);
    return error;
}

void SimActionSink::report(SimResult& result) const
{
    result.actions_applied = applied_;
    result.actions_rejected = rejected_;
    result.threads_set = threads_set_;
    result.hire_shortfall = hire_shortfall_;
}

int SimActionSink::group_index(const std::string& name) const
{
    for (std::size_t g = 0; g < groups_.size(); ++g)
        if (groups_[g].name == name)
            return int(g);
    return -1;
}

std::string SimActionSink::route(const RouteToCloud& route)
{
    const std::uint32_t j = jobs_.find(route.job);
    const int g = group_index(route.group);
    if (g < 0)
        return "unknown node group";
    if (j == SimJobs::kNone || jobs_[j].phase != Phase::Pending)
        return "job is not pending";
    const NodeGroup& group = groups_[std::size_t(g)];
    if (std::uint64_t(jobs_[j].cpus) > std::uint64_t(group.cpus) * group.capacity())
        return "job is wider than the group";
    // Slurm would never start it there: the policy should not have asked.
    if (!within_max_time(jobs_[j].trace->time_limit, snapshot_.max_time(std::size_t(g))))
        return "its time limit is beyond the group's partition MaxTime";
    scheduler_.route_to(j, std::uint32_t(g));
    snapshot_.routed(j, std::size_t(g));
    scheduler_.request_pass();
    return "";
}

std::string SimActionSink::unroute(const UnrouteJob& unroute)
{
    const std::uint32_t j = jobs_.find(unroute.job);
    if (j == SimJobs::kNone || jobs_[j].phase != Phase::Pending ||
        scheduler_.route(j) != group_index(unroute.group))
        return "job is not pending in the group";
    scheduler_.unroute(j);
    snapshot_.local_only(j);
    scheduler_.request_pass();
    return "";
}

std::string SimActionSink::hire(const HireNodes& hire)
{
    const int g = group_index(hire.group);
    if (g < 0)
        return "unknown node group";
    hire_shortfall_ += fleet_.hire(std::uint32_t(g), hire.count);
    scheduler_.request_pass();
    return "";
}

std::string SimActionSink::release(const ReleaseNodes& release)
{
    // A forced power-down would kill running jobs; the simulator drains
    // instead, so a policy cannot gain by killing work.
    std::string error;
    for (const auto& name : release.nodes)
        if (!fleet_.drain(name))
            error = "node " + name + " is not up";
    return error;
}

std::string SimActionSink::set_threads(const SetJobThreads& set)
{
    const std::uint32_t j = jobs_.find(set.job);
    if (j == SimJobs::kNone)
        return "job is not in the snapshot";
    const SimJob& job = jobs_[j];
    if (set.cpus_per_task == 0 || set.cpus % set.cpus_per_task != 0 ||
        set.cpus / set.cpus_per_task != job.cpus / job.cpus_per_task)
        return "the change would alter the job's number of tasks";
    const bool changes = set.cpus_per_task != job.cpus_per_task;
    std::string error = threads_.set_threads(j, set.cpus_per_task);
    if (error.empty() && changes)
        ++threads_set_;
    return error;
}

std::string SimActionSink::keep(const KeepPlaceholders& keep, bool& changed)
{
    const int g = group_index(keep.group);
    if (g < 0)
        return "unknown node group";
    changed = fleet_.keep_warm(std::uint32_t(g), keep.count);
    return "";
}

} // namespace burst

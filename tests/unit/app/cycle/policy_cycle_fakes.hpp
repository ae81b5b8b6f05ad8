#pragma once
// Stand-ins for what a PolicyCycle drives: a policy that returns scripted
// actions, a provider with nothing behind it, and an actuator that records
// each call to Slurm as one line ("job 7 local,cloud", "job 7 2x4 cpus",
// "POWER_UP c2", "drain c1", "undrain c1") and keeps drain reasons as Slurm would.

#include "app/cycle/policy_cycle.hpp"

#include <map>
#include <memory>
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace burst::test {

// A CLOUD node of 2 CPUs with `flags` (power state) and `alloc` CPUs in use.
inline Node cloud_node(const std::string& name, std::uint32_t flags, std::uint32_t alloc = 0)
{
    Node n;
    n.name = name;
    n.base = alloc ? NodeBaseState::Allocated : NodeBaseState::Idle;
    n.flags = kNodeCloud | flags;
    n.cpus = 2;
    n.alloc_cpus = alloc;
    return n;
}

// Returns the same actions every cycle.
class ScriptedPolicy final : public Policy {
public:
    explicit ScriptedPolicy(std::vector<Action> actions, std::string name = "scripted")
        : name_(std::move(name)), actions_(std::move(actions))
    {
    }
    std::string_view name() const override { return name_; }
    Decision decide(const ClusterState&, const Clock& clock) override
    {
        Decision d;
        d.time = clock.now();
        d.actions = actions_;
        return d;
    }

private:
    std::string name_;
    std::vector<Action> actions_;
};

class NoProvider final : public Provider {
public:
    std::string_view name() const override { return "none"; }
    std::vector<LaunchResult> launch(const std::vector<LaunchRequest>&) override { return {}; }
    ListResult list(const InstanceTags&) override { return {}; }
    std::map<std::string, ProviderError> terminate(const std::vector<std::string>&) override { return {}; }
};

class RecordingActuator final : public SlurmActuator {
public:
    ActuatorError set_job_partitions(JobId job, const std::vector<std::string>& parts, std::string_view) override
    {
        std::string list;
        for (const auto& p : parts)
            list += (list.empty() ? "" : ",") + p;
        calls.push_back("job " + std::to_string(job) + " " + list);
        return {};
    }
    ActuatorError set_job_cpus(const JobCpuChange& change, std::string_view) override
    {
        calls.push_back("job " + std::to_string(change.job()) + " " + std::to_string(change.num_tasks()) + "x" +
                        std::to_string(change.cpus_per_task()) + " cpus");
        return {};
    }
    ActuatorError set_job_why(JobId job, std::string_view why) override
    {
        whys.push_back("job " + std::to_string(job) + " why:" + std::string(why));
        return {};
    }
    ActuatorError submit_placeholder(const PlaceholderJob& job, std::string_view, JobId& id) override
    {
        id = next_job_id++;
        std::string excluded;
        for (const auto& n : job.excluded_nodes)
            excluded += (excluded.empty() ? "" : ",") + n;
        calls.push_back("submit " + job.name + " partition=" + job.partition + " qos=" + job.qos +
                        (job.cpus ? " cpus=" + std::to_string(job.cpus) : "") +
                        (excluded.empty() ? "" : " exclude=" + excluded) + " -> " + std::to_string(id));
        return {};
    }
    ActuatorError cancel_job(JobId job, std::string_view) override
    {
        calls.push_back("cancel " + std::to_string(job));
        return {};
    }
    ActuatorError hold_job(JobId job, std::string_view) override
    {
        calls.push_back("hold " + std::to_string(job));
        return {};
    }
    ActuatorError requeue_job(JobId job, std::string_view) override
    {
        calls.push_back("requeue " + std::to_string(job));
        if (std::find(not_requeueable.begin(), not_requeueable.end(), job) != not_requeueable.end())
            return {"requeue job " + std::to_string(job) + ": Requested operation is presently disabled", true};
        if (std::find(requeue_fails.begin(), requeue_fails.end(), job) != requeue_fails.end())
            return {"requeue job " + std::to_string(job) + ": Job is pending execution"};
        return {};
    }
    ActuatorError place_job(const JobPlacement& placement, std::string_view) override
    {
        std::string list;
        for (const auto& p : placement.partitions)
            list += (list.empty() ? "" : ",") + p;
        calls.push_back("place " + std::to_string(placement.job) + " " + list + " node=" + placement.node +
                        (placement.hold == JobPlacement::Hold::Hold      ? " held"
                         : placement.hold == JobPlacement::Hold::Release ? " released"
                                                                         : "") +
                        (placement.start_now ? " now" : ""));
        if (!placement.node.empty() &&
            std::find(unplaceable.begin(), unplaceable.end(), placement.job) != unplaceable.end())
            return {"job " + std::to_string(placement.job) + ": Requested node configuration is not available"};
        return {};
    }
    ActuatorError power(const std::vector<std::string>& nodes, PowerAction action, std::string_view) override
    {
        for (const auto& n : nodes)
            calls.push_back(std::string(to_string(action)) + " " + n);
        return {};
    }
    ActuatorError set_node_instance(const NodeInstance&, std::string_view) override { return {}; }
    ActuatorError hand_back_node(const std::string&, std::string_view, const std::vector<JobId>&,
                                 std::vector<JobId>&) override
    {
        return {};
    }
    ActuatorError drain(const std::vector<std::string>& nodes, std::string_view reason) override
    {
        for (const auto& n : nodes) {
            calls.push_back("drain " + n);
            reasons[n] = std::string(reason);
        }
        return {};
    }
    // Clears only what `reasons` (Slurm's view) says carries the prefix.
    ActuatorError undrain_own(const std::vector<std::string>& nodes, std::string_view prefix,
                              std::vector<std::string>& cleared) override
    {
        for (const auto& n : nodes)
            if (reasons[n].rfind(std::string(prefix), 0) == 0) {
                calls.push_back("undrain " + n);
                cleared.push_back(n);
                reasons.erase(n);
            }
        return {};
    }
    std::vector<std::string> calls;
    std::vector<JobId> not_requeueable; // requeue_job refuses these, as Slurm does --no-requeue jobs
    std::vector<JobId> requeue_fails;   // requeue_job fails for these, as for a job Slurm requeued already
    std::vector<JobId> unplaceable; // place_job refuses to pin these to a node
    JobId next_job_id = 9000; // submit_placeholder's ids
    std::vector<std::string> whys; // set_job_why, apart: most tests compare `calls` whole
    std::map<std::string, std::string> reasons; // drained node -> reason
};

// The manager a cycle launches through, for `groups`, whose one provider
// ("none", as the tests' configs name it) is `provider`.
inline InstanceManager instances_for(const std::vector<NodeGroup>& groups, std::unique_ptr<Provider> provider,
                                     Ledger& ledger, SlurmActuator& actuator, const Clock& clock, Logger& log)
{
    std::map<std::string, std::unique_ptr<Provider>> providers;
    providers["none"] = std::move(provider);
    InstanceManagerSettings settings;
    settings.groups = groups;
    return InstanceManager(std::move(providers), ledger, actuator, clock, log, std::move(settings));
}

} // namespace burst::test

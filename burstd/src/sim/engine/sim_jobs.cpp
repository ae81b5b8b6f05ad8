#include "sim/engine/sim_jobs.hpp"

#include "sim/engine/simulator.hpp"

#include <algorithm>
#include <string>

namespace burst {

SimJobs::SimJobs(const std::vector<TraceJob>& trace, std::uint32_t local_cores)
{
    std::vector<const TraceJob*> order;
    order.reserve(trace.size());
    std::unordered_set<JobId> seen;
    for (const auto& t : trace) {
        if (!seen.insert(t.id).second)
            throw SimConfigError("trace has job id " + std::to_string(t.id) + " more than once");
        if (t.scaling && (t.scaling->threads == 0 || t.cpus % t.scaling->threads != 0))
            throw SimConfigError("trace job " + std::to_string(t.id) + " runs " + std::to_string(t.cpus) +
                                 " CPUs, not a whole number of tasks of " +
                                 std::to_string(t.scaling->threads) + " CPUs");
        if (t.cpus > local_cores) {
            ++too_wide_;
            continue;
        }
        order.push_back(&t);
    }
    std::stable_sort(order.begin(), order.end(),
                     [](const TraceJob* a, const TraceJob* b) { return a->submit < b->submit; });
    jobs_.resize(order.size());
    by_id_.reserve(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        SimJob& j = jobs_[i];
        j.trace = order[i];
        j.cpus = order[i]->cpus;
        j.cpus_per_task = order[i]->scaling ? order[i]->scaling->threads : 1;
        j.runtime = std::max<Seconds>(0, order[i]->runtime);
        if (order[i]->time_limit > 0 && j.runtime > order[i]->time_limit) {
            j.runtime = order[i]->time_limit;
            ++runtimes_capped_;
        }
        j.estimate = order[i]->time_limit > 0 ? order[i]->time_limit : j.runtime;
        by_id_.emplace(order[i]->id, std::uint32_t(i));
    }
    link_dependencies(seen);
}

std::uint32_t SimJobs::find(JobId id) const
{
    auto it = by_id_.find(id);
    return it == by_id_.end() ? kNone : it->second;
}

void SimJobs::link_dependencies(const std::unordered_set<JobId>& trace_ids)
{
    std::vector<std::uint32_t> unresolved(jobs_.size(), 0);
    for (std::uint32_t i = 0; i < jobs_.size(); ++i) {
        for (JobId parent : jobs_[i].trace->parents) {
            auto it = by_id_.find(parent);
            if (it == by_id_.end()) {
                if (!trace_ids.count(parent))
                    throw SimConfigError("job " + std::to_string(jobs_[i].trace->id) + " depends on job " +
                                         std::to_string(parent) + ", which is not in the trace");
                // A parent too wide to replay never runs: its children go
                // on without it rather than wait forever.
                continue;
            }
            if (it->second == i)
                throw SimConfigError("job " + std::to_string(jobs_[i].trace->id) + " depends on itself");
            jobs_[it->second].children.push_back(i);
            ++jobs_[i].waiting_parents;
        }
        unresolved[i] = jobs_[i].waiting_parents;
    }
    // Kahn's algorithm: a job no topological order reaches sits on a cycle
    // and would wait forever.
    std::vector<std::uint32_t> ready;
    for (std::uint32_t i = 0; i < jobs_.size(); ++i)
        if (unresolved[i] == 0)
            ready.push_back(i);
    std::size_t reached = 0;
    while (!ready.empty()) {
        const std::uint32_t j = ready.back();
        ready.pop_back();
        ++reached;
        for (auto c : jobs_[j].children)
            if (--unresolved[c] == 0)
                ready.push_back(c);
    }
    if (reached != jobs_.size())
        for (std::uint32_t i = 0; i < jobs_.size(); ++i)
            if (unresolved[i] != 0)
                throw SimConfigError("job " + std::to_string(jobs_[i].trace->id) +
                                     " is on a dependency cycle");
}

} // namespace burst

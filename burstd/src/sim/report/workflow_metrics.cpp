#include "sim/report/workflow_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <unordered_map>

namespace burst {
namespace {

struct WorkflowRun {
    std::vector<const TraceJob*> tasks;
    Time arrival = 0;
    Time end = 0;
    std::size_t finished = 0;
};

double nearest_rank(const std::vector<double>& sorted, double q)
{
    const std::size_t rank = std::size_t(std::ceil(q * double(sorted.size())));
    return sorted[std::min(sorted.size(), std::max<std::size_t>(rank, 1)) - 1];
}

// Longest runtime chain through the instance's own tasks.
Seconds critical_path(const std::vector<const TraceJob*>& tasks)
{
    std::unordered_map<JobId, const TraceJob*> by_id;
    for (const auto* t : tasks)
        by_id.emplace(t->id, t);
    std::unordered_map<JobId, Seconds> finish;
    Seconds longest = 0;
    // Depth-first with memo; workflows are acyclic (the simulator checked).
    std::vector<std::pair<const TraceJob*, bool>> stack;
    for (const auto* root : tasks) {
        stack.emplace_back(root, false);
        while (!stack.empty()) {
            auto [t, expanded] = stack.back();
            stack.pop_back();
            if (finish.count(t->id))
                continue;
            if (!expanded) {
                stack.emplace_back(t, true);
                for (JobId p : t->parents) {
                    auto it = by_id.find(p);
                    if (it != by_id.end() && !finish.count(p))
                        stack.emplace_back(it->second, false);
                }
                continue;
            }
            Seconds start = 0;
            for (JobId p : t->parents) {
                auto it = finish.find(p);
                if (it != finish.end())
                    start = std::max(start, it->second);
            }
            finish[t->id] = start + t->runtime;
            longest = std::max(longest, start + t->runtime);
        }
    }
    return longest;
}

} // namespace

WorkflowMetrics workflow_metrics(const std::vector<TraceJob>& trace, const SimResult& result, double tau)
{
    std::map<std::string, WorkflowRun> instances;
    std::unordered_map<JobId, WorkflowRun*> of_job;
    for (const auto& j : trace) {
        if (j.workflow.empty())
            continue;
        WorkflowRun& w = instances[j.workflow];
        w.arrival = w.tasks.empty() ? j.submit : std::min(w.arrival, j.submit);
        w.tasks.push_back(&j);
        of_job.emplace(j.id, &w);
    }
    for (const auto& o : result.jobs) {
        auto it = of_job.find(o.id);
        if (it == of_job.end())
            continue;
        it->second->end = std::max(it->second->end, o.end);
        ++it->second->finished;
    }
    WorkflowMetrics m;
    std::vector<double> slowdowns;
    double response_sum = 0;
    for (const auto& entry : instances) {
        const WorkflowRun& w = entry.second;
        if (w.finished != w.tasks.size())
            continue;
        const double response = w.end - w.arrival;
        response_sum += response;
        slowdowns.push_back(response / std::max(critical_path(w.tasks), tau));
    }
    m.workflows = slowdowns.size();
    if (slowdowns.empty())
        return m;
    std::sort(slowdowns.begin(), slowdowns.end());
    double sum = 0;
    for (double s : slowdowns)
        sum += s;
    m.mean_response = response_sum / double(m.workflows);
    m.mean_slowdown = sum / double(m.workflows);
    m.median_slowdown = nearest_rank(slowdowns, 0.5);
    m.p95_slowdown = nearest_rank(slowdowns, 0.95);
    return m;
}

} // namespace burst

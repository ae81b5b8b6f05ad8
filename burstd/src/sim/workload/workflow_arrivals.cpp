#include "sim/workload/workflow_arrivals.hpp"

#include "sim/unit_draw.hpp"

#include <cmath>
#include <random>

namespace burst {

Trace workflow_trace(const std::vector<Workflow>& workflows, const WorkflowArrivals& o)
{
    if (workflows.empty())
        throw WorkflowError("workflow arrivals: no workflows given");
    if (!(o.rate_per_hour > 0) || !std::isfinite(o.rate_per_hour))
        throw WorkflowError("workflow arrivals: the rate must be a number > 0 per hour");
    if (o.accounts.empty())
        throw WorkflowError("workflow arrivals: at least one account is needed");
    const std::uint32_t count = o.count ? o.count : std::uint32_t(workflows.size());
    // A stream of its own, so that adding workflows does not shift boot jitter.
    std::mt19937_64 rng(o.seed ^ 0x9e3779b97f4a7c15ULL);
    Trace trace;
    trace.report.source = "workflow arrivals";
    Time at = 0;
    JobId next = 1;
    for (std::uint32_t k = 0; k < count; ++k) {
        if (k > 0)
            at += -std::log(1 - unit_draw(rng)) * 3600 / o.rate_per_hour;
        const Workflow& w = workflows[std::size_t(unit_draw(rng) * double(workflows.size()))];
        const std::string& account = o.accounts[k % o.accounts.size()];
        const JobId first = next;
        const std::string instance = std::to_string(k + 1) + ":" + w.name;
        for (const auto& task : w.tasks) {
            TraceJob j;
            j.id = next++;
            j.submit = at;
            j.runtime = task.runtime;
            j.cpus = task.cores;
            j.user = account;
            j.account = account;
            j.name = task.name;
            j.category = w.name + ":" + task.name;
            j.workflow = instance;
            for (auto p : task.parents)
                j.parents.push_back(first + JobId(p));
            trace.jobs.push_back(std::move(j));
        }
    }
    trace.report.jobs = trace.jobs.size();
    return trace;
}

} // namespace burst

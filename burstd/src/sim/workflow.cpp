#include "sim/workflow.hpp"

#include <algorithm>

namespace burst {
namespace {

// Tasks in an order where every parent comes before its children; empty
// when there is a cycle.
std::vector<std::size_t> topological_order(const Workflow& w)
{
    const std::size_t n = w.tasks.size();
    std::vector<std::vector<std::size_t>> children(n);
    std::vector<std::size_t> waiting(n, 0);
    for (std::size_t i = 0; i < n; ++i)
        for (auto p : w.tasks[i].parents) {
            children[p].push_back(i);
            ++waiting[i];
        }
    std::vector<std::size_t> order, ready;
    for (std::size_t i = 0; i < n; ++i)
        if (waiting[i] == 0)
            ready.push_back(i);
    while (!ready.empty()) {
        const std::size_t t = ready.back();
        ready.pop_back();
        order.push_back(t);
        for (auto c : children[t])
            if (--waiting[c] == 0)
                ready.push_back(c);
    }
    if (order.size() != n)
        order.clear();
    return order;
}

} // namespace

void check_workflow(const Workflow& w)
{
    if (w.tasks.empty())
        throw WorkflowError(w.source + ": the workflow has no tasks");
    for (const auto& t : w.tasks)
        for (auto p : t.parents)
            if (p >= w.tasks.size())
                throw WorkflowError(w.source + ": task " + t.id + " has a parent outside the workflow");
    if (topological_order(w).empty()) {
        throw WorkflowError(w.source + ": the task dependencies form a cycle");
    }
}

Seconds critical_path(const Workflow& w)
{
    const auto order = topological_order(w);
    std::vector<Seconds> finish(w.tasks.size(), 0);
    Seconds longest = 0;
    for (auto t : order) {
        Seconds start = 0;
        for (auto p : w.tasks[t].parents)
            start = std::max(start, finish[p]);
        finish[t] = start + w.tasks[t].runtime;
        longest = std::max(longest, finish[t]);
    }
    return longest;
}

} // namespace burst

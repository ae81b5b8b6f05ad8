#include "sim/workload/workflow.hpp"

#include <algorithm>

namespace burst {
namespace {

// Tasks in an order where every parent comes before its children, as far as
// one exists: tasks on a dependency cycle, or waiting for one, are left out.
std::vector<std::size_t> dependency_order(const Workflow& w)
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
    return order;
}

// One dependency cycle among the tasks `order` left out, each task a parent
// of the next (and the last of the first), starting at its lowest index.
std::vector<std::size_t> some_cycle(const Workflow& w, const std::vector<std::size_t>& order)
{
    std::vector<bool> ordered(w.tasks.size(), false);
    for (auto t : order)
        ordered[t] = true;
    // A task left out waits for a parent that was left out too, so walking
    // from parent to parent among them comes back to a task already seen.
    constexpr std::size_t kUnseen = std::size_t(-1);
    std::vector<std::size_t> seen_at(w.tasks.size(), kUnseen);
    std::vector<std::size_t> walk;
    std::size_t t = std::size_t(std::find(ordered.begin(), ordered.end(), false) - ordered.begin());
    while (seen_at[t] == kUnseen) {
        seen_at[t] = walk.size();
        walk.push_back(t);
        t = *std::find_if(w.tasks[t].parents.begin(), w.tasks[t].parents.end(),
                          [&](std::size_t p) { return !ordered[p]; });
    }
    std::vector<std::size_t> cycle(walk.begin() + std::ptrdiff_t(seen_at[t]), walk.end());
    std::reverse(cycle.begin(), cycle.end()); // the walk went from child to parent
    std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
    return cycle;
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
    const auto order = dependency_order(w);
    if (order.size() != w.tasks.size()) {
        std::string tasks;
        const auto cycle = some_cycle(w, order);
        for (auto t : cycle) {
            const WorkflowTask& task = w.tasks[t];
            tasks += task.id + (task.origin.empty() ? "" : " (" + task.origin + ")") + " -> ";
        }
        throw WorkflowError(w.source + ": the task dependencies form a cycle (parent -> child): " + tasks +
                            w.tasks[cycle.front()].id);
    }
}

Seconds critical_path(const Workflow& w)
{
    const auto order = dependency_order(w);
    if (order.size() != w.tasks.size())
        return 0; // a cycle: check_workflow rejects it
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

#include "policy/cloud_cost_bound.hpp"

#include <algorithm>

namespace burst {

namespace {

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return b ? (a + b - 1) / b : a; }

double cost(const NodeGroup& group, double nodes, Seconds seconds)
{
    return nodes * group.price_per_hour * seconds / 3600.0;
}

} // namespace

std::uint32_t nodes_per_task(const Job& job, const NodeGroup& group)
{
    std::uint64_t n = std::max<std::uint64_t>(job.node_count, 1);
    n = std::max(n, ceil_div(job.cpus, group.cpus));
    if (group.memory_mb > 0)
        n = std::max(n, ceil_div(job.memory_mb, group.memory_mb));
    return std::uint32_t(std::min<std::uint64_t>(n, UINT32_MAX));
}

std::optional<double> route_cost_bound(const Job& job, const NodeGroup& group)
{
    if (job.time_limit <= 0)
        return std::nullopt;
    const double nodes = double(nodes_per_task(job, group)) * std::max<std::uint32_t>(job.array_task_count, 1);
    return cost(group, nodes, group.boot_time + job.time_limit);
}

std::optional<double> running_node_cost_bound(const Job& job, const NodeGroup& group, bool booting, Time now)
{
    if (job.time_limit <= 0)
        return std::nullopt;
    Seconds left = std::max<Seconds>(0, job.start_time + job.time_limit - now);
    if (booting)
        left += group.boot_time;
    return cost(group, 1, left);
}

std::optional<double> idle_node_cost_bound(const NodeGroup& group, Seconds boot_left,
                                           std::optional<Seconds> suspend_time)
{
    if (!suspend_time)
        return std::nullopt;
    return cost(group, 1, std::max<Seconds>(0, boot_left) + *suspend_time);
}

double node_share(const Job& job, std::size_t nodes, const NodeGroup& group)
{
    if (group.cpus == 0)
        return 1.0;
    return std::min(1.0, double(job.cpus) / double(std::max<std::size_t>(nodes, 1)) / double(group.cpus));
}

std::optional<BusyNodeBound> busy_node_unused_cost_bound(const NodeGroup& group, const std::vector<const Job*>& jobs,
                                                         bool booting, Time now, std::optional<Seconds> suspend_time)
{
    if (!suspend_time)
        return std::nullopt;
    Seconds last = 0;
    double paid = 0;
    for (const Job* job : jobs) {
        if (job->time_limit <= 0)
            return std::nullopt;
        Seconds left = std::max<Seconds>(0, job->start_time + job->time_limit - now) + (booting ? group.boot_time : 0);
        last = std::max(last, left);
        paid += cost(group, node_share(*job, job->nodes.size(), group), left);
    }
    return BusyNodeBound{std::max(0.0, cost(group, 1, last + *suspend_time) - paid), last};
}

void OpenNodes::add(const OpenNode& node, std::size_t copies)
{
    std::vector<OpenNode>& nodes = node.booting ? booting_ : up_;
    auto at = std::upper_bound(nodes.begin(), nodes.end(), node.busy_for,
                               [](Seconds busy_for, const OpenNode& n) { return busy_for < n.busy_for; });
    nodes.insert(at, copies, node);
}

std::optional<double> route_unused_cost_bound(const Job& job, const NodeGroup& group, const OpenNodes& open,
                                              std::uint64_t free_cpus, std::optional<Seconds> suspend_time)
{
    if (job.time_limit <= 0 || !suspend_time)
        return std::nullopt;
    const std::uint64_t per_node = group.cpus ? group.cpus : 1;
    const std::uint64_t cores =
        std::max<std::uint64_t>(job.cpus, 1) * std::max<std::uint32_t>(job.array_task_count, 1);
    const auto extension = [&](const OpenNode& n) {
        return std::max<Seconds>(0, job.time_limit + (n.booting ? group.boot_time : 0) - n.busy_for);
    };
    // The `cores` nodes it extends most, in that order: the merge of both
    // lists, each extended less down the list.
    const std::vector<OpenNode>& up = open.up();
    const std::vector<OpenNode>& booting = open.booting();
    Seconds extended = 0;
    for (std::size_t k = 0, u = 0, b = 0; k < cores && (u < up.size() || b < booting.size()); ++k) {
        const bool next_up = b == booting.size() || (u < up.size() && extension(up[u]) >= extension(booting[b]));
        extended += extension(next_up ? up[u++] : booting[b++]);
    }
    const double paid = cost(group, double(cores) / double(per_node), job.time_limit);
    const auto on = [&](std::uint64_t free, Seconds ext) {
        const double fresh = double(ceil_div(cores > free ? cores - free : 0, per_node));
        const double tail = cost(group, fresh, group.boot_time + *suspend_time);
        return std::max(tail, cost(group, 1, ext) + tail + cost(group, fresh, job.time_limit) - paid);
    };
    return std::max(on(free_cpus, extended), on(0, 0));
}

} // namespace burst

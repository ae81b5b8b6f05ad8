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

} // namespace burst

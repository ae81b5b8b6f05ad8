#include "policy/cost/cloud_cost_bound.hpp"

#include "policy/cost/billing_boundary.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>

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
    return cost(group, nodes, group.boot_bound() + job.time_limit);
}

std::optional<double> running_node_cost_bound(const Job& job, const NodeGroup& group, bool booting, Time now)
{
    if (job.time_limit <= 0)
        return std::nullopt;
    Seconds left = std::max<Seconds>(0, job.start_time + job.time_limit - now);
    if (booting)
        left += group.boot_bound();
    return cost(group, 1, left);
}

std::optional<double> idle_node_cost_bound(const NodeGroup& group, Seconds uptime, Seconds boot_left,
                                           std::optional<Seconds> suspend_time)
{
    if (!suspend_time)
        return std::nullopt;
    uptime = std::max<Seconds>(0, uptime);
    const Seconds down_at = uptime + std::max<Seconds>(0, boot_left) + *suspend_time;
    return cost(group, 1, down_at - uptime + billing_overrun_bound(group, down_at, down_at + kPowerDownLag));
}

double terminating_node_cost_bound(const NodeGroup& group, Seconds uptime)
{
    uptime = std::max<Seconds>(0, uptime);
    return cost(group, 1, billed_seconds(group, uptime + kPowerDownLag) - uptime);
}

double billed_after_power_down(const NodeGroup& group, const BilledSpan& span, Time now)
{
    if (!span.until)
        return 0;
    return cost(group, 1, std::max<Seconds>(0, billed_until(group, span.from, *span.until) - now));
}

double node_share(const Job& job, std::size_t nodes, const NodeGroup& group)
{
    if (group.cpus == 0)
        return 1.0;
    return std::min(1.0, double(job.cpus) / double(std::max<std::size_t>(nodes, 1)) / double(group.cpus));
}

std::optional<BusyNodeBound> busy_node_unused_cost_bound(const NodeGroup& group, const std::vector<const Job*>& jobs,
                                                         bool booting, Time now, Seconds uptime,
                                                         std::optional<Seconds> suspend_time)
{
    if (!suspend_time)
        return std::nullopt;
    // Each job ends anywhere up to its limit.  "" is most when one of them
    // runs to its limit, paying its share, and all the others end at once.
    Seconds last = 0;
    double unused = cost(group, 1, *suspend_time);
    for (const Job* job : jobs) {
        if (job->time_limit <= 0)
            return std::nullopt;
        Seconds left = std::max<Seconds>(0, job->start_time + job->time_limit - now) + (booting ? group.boot_bound() : 0);
        last = std::max(last, left);
        unused = std::max(unused, cost(group, 1, left + *suspend_time) -
                                      cost(group, node_share(*job, job->nodes.size(), group), left));
    }
    // The node powers down anywhere from now on.
    const Seconds overrun = billing_overrun_bound(group, uptime, uptime + last + *suspend_time + kPowerDownLag);
    return BusyNodeBound{unused + cost(group, 1, overrun), last};
}

void OpenNodes::add(const OpenNode& node, std::size_t copies)
{
    std::vector<OpenNode>& nodes = node.booting ? booting_ : up_;
    auto at = std::upper_bound(nodes.begin(), nodes.end(), node.busy_for,
                               [](Seconds busy_for, const OpenNode& n) { return busy_for < n.busy_for; });
    nodes.insert(at, copies, node);
    headroom_.insert(std::upper_bound(headroom_.begin(), headroom_.end(), node.billing_headroom, std::greater<>()),
                     copies, node.billing_headroom);
}

Seconds OpenNodes::billing_headroom(std::size_t nodes) const
{
    return std::accumulate(headroom_.begin(), headroom_.begin() + std::ptrdiff_t(std::min(nodes, headroom_.size())),
                           Seconds(0));
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
        return std::max<Seconds>(0, job.time_limit + (n.booting ? group.boot_bound() : 0) - n.busy_for);
    };
    // The `cores` nodes it extends most, in that order: the merge of both
    // lists, each extended less down the list.
    const std::vector<OpenNode>& up = open.up();
    const std::vector<OpenNode>& booting = open.booting();
    Seconds extended = 0;
    std::size_t touched = 0;
    for (std::size_t u = 0, b = 0; touched < cores && (u < up.size() || b < booting.size()); ++touched) {
        const bool next_up = b == booting.size() || (u < up.size() && extension(up[u]) >= extension(booting[b]));
        extended += extension(next_up ? up[u++] : booting[b++]);
    }
    const double paid = cost(group, double(cores) / double(per_node), job.time_limit);
    // A fresh node powers down a SuspendTime after its boot if the job ends
    // at once, or after its limit at the latest.
    const Seconds at_once = group.boot_bound() + *suspend_time;
    const Seconds latest = at_once + job.time_limit + kPowerDownLag;
    const Seconds fresh_up = at_once + job.time_limit + billing_overrun_bound(group, at_once, latest);
    const auto on = [&](std::uint64_t free, Seconds ext, std::size_t nodes_extended) {
        const double fresh = double(ceil_div(cores > free ? cores - free : 0, per_node));
        const double tail =
            cost(group, fresh, at_once + billing_overrun_bound(group, at_once, at_once + kPowerDownLag));
        const double extended_open = cost(group, 1, ext + open.billing_headroom(nodes_extended));
        // Overrun and uptime add up beyond the bill on fresh nodes billed by
        // the hour: the whole bill, paid by nobody, bounds it too.
        return std::min(std::max(tail, extended_open + cost(group, fresh, fresh_up) - paid),
                        extended_open + cost(group, fresh, billed_seconds(group, latest)));
    };
    return std::max(on(free_cpus, extended, touched), on(0, 0, 0));
}

} // namespace burst

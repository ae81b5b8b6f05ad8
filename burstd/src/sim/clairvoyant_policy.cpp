#include "sim/clairvoyant_policy.hpp"

#include <algorithm>

namespace burst {

ClairvoyantPolicy::ClairvoyantPolicy(const SimConfig& config, const std::vector<TraceJob>& trace,
                                     const SimResult& no_burst, double lambda)
{
    std::unordered_map<JobId, Seconds> wait;
    wait.reserve(no_burst.jobs.size());
    for (const auto& j : no_burst.jobs)
        wait.emplace(j.id, j.start - j.eligible);
    for (const auto& t : trace) {
        auto it = wait.find(t.id);
        if (it == wait.end() || it->second <= 0)
            continue;
        const double cores = t.cpus;
        const double gain = it->second * cores * lambda / 3600;
        const NodeGroup* best = nullptr;
        double best_cost = 0;
        for (const auto& g : config.groups) {
            const std::uint64_t nodes = (t.cpus + g.cpus - 1) / g.cpus;
            const std::uint64_t capacity = g.nodes.empty() ? g.max_count : g.capacity();
            if (nodes > capacity)
                continue;
            const Seconds runtime = t.time_limit > 0 ? std::min(t.runtime, t.time_limit) : t.runtime;
            const double cost = double(nodes) * g.price_per_hour / 3600 *
                                    std::max(g.min_billed, g.boot_time + std::max<Seconds>(0, runtime) / g.speed) +
                                lambda * cores * g.boot_time / 3600;
            if (!best || cost < best_cost) {
                best = &g;
                best_cost = cost;
            }
        }
        if (best && gain > best_cost)
            route_.emplace(t.id, best->name);
    }
}

Decision ClairvoyantPolicy::decide(const ClusterState& state, const Clock& clock)
{
    Decision d;
    d.time = clock.now();
    for (const auto& job : state.snapshot.jobs) {
        if (!job.pending() || job.partitions.size() > 1)
            continue; // running, or already routed (local plus a group partition)
        auto it = route_.find(job.id);
        if (it != route_.end())
            d.add(RouteToCloud{job.id, it->second}, "waited longer than worth it in the no-burst replay");
    }
    return d;
}

} // namespace burst

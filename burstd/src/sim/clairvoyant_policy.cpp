#include "sim/clairvoyant_policy.hpp"

#include <algorithm>
#include <limits>

namespace burst {

double burst_cost(const SimConfig& config, const TraceJob& job, double lambda, int& group, bool shared)
{
    group = -1;
    double best = std::numeric_limits<double>::infinity();
    const Seconds runtime = std::max<Seconds>(0, job.time_limit > 0 ? std::min(job.runtime, job.time_limit)
                                                                     : job.runtime);
    for (std::size_t i = 0; i < config.groups.size(); ++i) {
        const NodeGroup& g = config.groups[i];
        const std::uint64_t nodes = (job.cpus + g.cpus - 1) / g.cpus;
        const std::uint64_t capacity = g.nodes.empty() ? g.max_count : g.capacity();
        if (nodes > capacity)
            continue;
        const Seconds up = g.boot_time + runtime / g.speed;
        const double node_seconds = shared && job.cpus < g.cpus ? up * double(job.cpus) / double(g.cpus)
                                                                : double(nodes) * std::max(g.min_billed, up);
        const double cost = node_seconds * g.price_per_hour / 3600 + lambda * double(job.cpus) * g.boot_time / 3600;
        if (cost < best) {
            best = cost;
            group = int(i);
        }
    }
    return best;
}

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
        int g = -1;
        const double cost = burst_cost(config, t, lambda, g);
        if (g >= 0 && it->second * t.cpus * lambda / 3600 > cost)
            route_.emplace(t.id, config.groups[std::size_t(g)].name);
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
            d.add(RouteToCloud{job.id, it->second}, "chosen in hindsight by the clairvoyant reference");
    }
    return d;
}

} // namespace burst

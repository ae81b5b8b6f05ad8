#include "policy/threshold_policy.hpp"

#include "policy/group_choice.hpp"
#include "policy/site_view.hpp"

#include <algorithm>
#include <cmath>

namespace burst {

ThresholdPolicy::ThresholdPolicy(PolicyParams& params)
    : queue_metric_(params.get_choice("metric", "utilization", {"utilization", "queue"}) == "queue"),
      target_(params.get_double("target_utilization", 0.8, 0.01, 1.0)),
      target_queue_(params.get_uint("target_queue", 4, 1, 1000000)),
      stabilization_(params.get_duration("stabilization", 300, 0, 86400)),
      expander_(make_expander(params.get_choice("expander", "price", expander_names()))),
      gate_(params.get_double("lambda", HUGE_VAL, 0, 1e9))
{
    params.given_only_with("target_utilization", !queue_metric_, "metric=utilization");
    params.given_only_with("target_queue", queue_metric_, "metric=queue");
}

Decision ThresholdPolicy::decide(const ClusterState& state, const Clock& clock)
{
    Decision d;
    const Time now = d.time = clock.now();
    SiteView view = SiteView::of(state);
    if (!gate_.off()) {
        gate_.observe(state);
        waits_.begin(view, now);
    }

    // Waiting work: burstable jobs that would not start locally in FCFS order.
    std::uint64_t local_free = view.local_free_cpus;
    std::vector<const Job*> waiting;
    std::vector<std::size_t> waiting_at; // their index in view.pending
    std::uint64_t waiting_cpus = 0;
    for (std::size_t i = 0; i < view.pending.size(); ++i) {
        const std::uint64_t cpus = view.pending_cpus[i];
        if (view.pending_group[i] >= 0) {
            waiting_cpus += cpus;
            continue;
        }
        if (cpus <= local_free) {
            local_free -= cpus;
            continue;
        }
        if (view.pending_burst[i] == BurstOption::Never)
            continue;
        waiting.push_back(view.pending[i]);
        waiting_at.push_back(i);
        waiting_cpus += cpus;
    }
    std::uint64_t busy = view.local_alloc_cpus, cloud_cpus = 0;
    for (const auto& g : view.groups) {
        busy += g.alloc_cpus;
        cloud_cpus += std::uint64_t(g.up_nodes + g.booting_nodes) * g.group->cpus;
    }
    std::uint64_t desired_now = 0;
    if (queue_metric_) {
        std::uint64_t cloud_alloc = 0, node_cpus = 0;
        for (const auto& g : view.groups) {
            cloud_alloc += g.alloc_cpus;
            node_cpus = std::max<std::uint64_t>(node_cpus, g.group->cpus);
        }
        const std::uint64_t queued = waiting.size();
        desired_now = cloud_alloc + (queued + target_queue_ - 1) / target_queue_ * node_cpus;
    } else {
        const double wanted_total = std::ceil(double(busy + waiting_cpus) / target_);
        desired_now = wanted_total > double(view.local_cpus) ? std::uint64_t(wanted_total) - view.local_cpus : 0;
    }

    history_.emplace_back(now, desired_now);
    while (!history_.empty() && history_.front().first < now - stabilization_)
        history_.pop_front();
    std::uint64_t desired = 0;
    for (const auto& h : history_)
        desired = std::max(desired, h.second);

    std::vector<ExpansionOption> options;
    if (desired > cloud_cpus) {
        std::uint64_t missing = desired - cloud_cpus;
        if (GroupView* chosen = choose_group(
                *expander_, view.groups, missing, [](const GroupView& g) { return g.hireable_nodes > 0; }, options)) {
            const std::uint32_t per_node = chosen->group->cpus ? chosen->group->cpus : 1;
            const std::uint32_t wanted =
                std::uint32_t(std::min<std::uint64_t>((missing + per_node - 1) / per_node, chosen->hireable_nodes));
            // Waiting jobs that cloud cores up or booting cannot take
            // already (they take them in priority order), and how long
            // each would wait locally.
            std::uint64_t spare = 0;
            for (const auto& g : view.groups) {
                const std::uint64_t ready = g.free_up_cpus + g.free_booting_cpus;
                spare += ready > g.routed_pending_cpus ? ready - g.routed_pending_cpus : 0;
            }
            std::size_t first = 0;
            for (; first < waiting.size() && waiting[first]->total_cpus() <= spare; ++first)
                spare -= waiting[first]->total_cpus();
            std::uint32_t nodes = wanted;
            if (!gate_.off()) {
                const NodeGroup& group = *chosen->group;
                const std::vector<std::size_t> uncovered(waiting_at.begin() + std::ptrdiff_t(first), waiting_at.end());
                nodes = gate_.worth(group, wanted, waits_.waiting(view, now, uncovered, gate_.horizon_for(group)));
            }
            std::string why =
                queue_metric_ ? std::to_string(waiting.size()) + " jobs waiting, target " +
                                    std::to_string(target_queue_) + " per node"
                              : "utilization " +
                                    std::to_string(int(100 * double(busy + waiting_cpus) /
                                                       double(std::max<std::uint64_t>(1, view.local_cpus + cloud_cpus)))) +
                                    "% of current cores exceeds target " + std::to_string(int(100 * target_)) + "%";
            if (nodes < wanted)
                d.notes.push_back(std::to_string(wanted - nodes) + " of " + std::to_string(wanted) +
                                  " nodes wanted cost more than their jobs' expected local wait at lambda " +
                                  std::to_string(gate_.lambda()));
            if (nodes > 0) {
                d.add(HireNodes{chosen->group->name, nodes}, why);
                chosen->free_booting_cpus += std::uint64_t(nodes) * per_node;
                chosen->hireable_nodes -= nodes;
            }
        } else {
            d.notes.push_back("no node group can grow");
        }
    } else if (desired < cloud_cpus) {
        // Release idle nodes, most expensive first, while staying at or above desire.
        std::uint64_t surplus = cloud_cpus - desired;
        std::vector<const GroupView*> by_price;
        for (const auto& g : view.groups)
            by_price.push_back(&g);
        std::sort(by_price.begin(), by_price.end(), [](const GroupView* a, const GroupView* b) {
            return a->group->price_per_cpu_second() > b->group->price_per_cpu_second();
        });
        ReleaseNodes release;
        for (const GroupView* g : by_price)
            for (const auto& node : g->idle_nodes)
                if (g->group->cpus <= surplus) {
                    release.nodes.push_back(node);
                    surplus -= g->group->cpus;
                }
        if (!release.nodes.empty())
            d.add(std::move(release), "cloud cores above the highest desire of the last " +
                                          std::to_string(int(stabilization_)) + " s");
    }

    // Let waiting jobs use cloud cores that are up, booting or just hired, but
    // never so many that Slurm would resume nodes beyond the desired size.
    for (const Job* job : waiting) {
        const std::uint64_t cpus = job->total_cpus();
        GroupView* chosen = choose_group(
            *expander_, view.groups, cpus,
            [cpus](const GroupView& g) { return g.free_up_cpus + g.free_booting_cpus >= g.routed_pending_cpus + cpus; },
            options);
        if (!chosen)
            break;
        chosen->routed_pending_cpus += cpus;
        d.add(RouteToCloud{job->id, chosen->group->name}, "cloud cores are up or booting for it");
    }
    return d;
}

} // namespace burst

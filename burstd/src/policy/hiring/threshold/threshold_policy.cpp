#include "policy/hiring/threshold/threshold_policy.hpp"

#include "policy/site/group_choice.hpp"
#include "policy/site/site_view.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <numeric>

namespace burst {

namespace {

// The HPA controller's default --horizontal-pod-autoscaler-tolerance: it
// leaves the size alone while utilization / target is within this of 1.
constexpr double kHpaTolerance = 0.1;

} // namespace

ThresholdPolicy::Metric ThresholdPolicy::metric_named(const std::string& name)
{
    if (name == "hpa")
        return Metric::Hpa;
    if (name == "queue")
        return Metric::Queue;
    return Metric::Utilization;
}

ThresholdPolicy::ThresholdPolicy(PolicyParams& params)
    : metric_(metric_named(params.get_choice("metric", "utilization", {"utilization", "hpa", "queue"}))),
      target_(params.get_double("target_utilization", 0.8, 0.01, 1.0)),
      target_queue_(params.get_uint("target_queue", 4, 1, 1000000)),
      stabilization_(params.get_duration("stabilization", 300, 0, 86400)),
      expander_(make_expander(params.get_choice("expander", "price", expander_names()))),
      gate_(params.get_double("lambda", HUGE_VAL, 0, 1e9))
{
    params.given_only_with("target_utilization", metric_ != Metric::Queue, "metric=utilization or metric=hpa");
    params.given_only_with("target_queue", metric_ == Metric::Queue, "metric=queue");
}

Decision ThresholdPolicy::decide(const ClusterState& state, const Clock& clock)
{
    Decision d;
    const Time now = d.time = clock.now();
    SiteView& view = site_.build(state);
    for (auto& note : view.needs_notes())
        d.notes.push_back(std::move(note));
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
    const std::uint64_t supply = view.local_cpus + cloud_cpus;
    std::uint64_t desired_now = 0;
    // Written only for a hire: most decisions hire nothing.
    std::function<std::string()> why;
    switch (metric_) {
    case Metric::Queue: {
        std::uint64_t cloud_alloc = 0, node_cpus = 0;
        for (const auto& g : view.groups) {
            cloud_alloc += g.alloc_cpus;
            node_cpus = std::max<std::uint64_t>(node_cpus, g.group->cpus);
        }
        const std::uint64_t queued = waiting.size();
        desired_now = cloud_alloc + (queued + target_queue_ - 1) / target_queue_ * node_cpus;
        why = [queued, this] {
            return std::to_string(queued) + " jobs waiting, target " + std::to_string(target_queue_) + " per node";
        };
        break;
    }
    case Metric::Hpa: {
        // Booting nodes count as supply with nothing busy on them, jobs
        // Slurm has already placed there included: HPA counts pods not yet
        // ready at zero CPU use when scaling up.
        std::uint64_t running = view.local_alloc_cpus;
        for (const auto& g : view.groups)
            running += g.up_alloc_cpus;
        const double ratio = double(running) / double(std::max<std::uint64_t>(1, supply)) / target_;
        const double wanted_total =
            std::fabs(ratio - 1) <= kHpaTolerance ? double(supply) : std::ceil(double(running) / target_);
        desired_now = wanted_total > double(view.local_cpus) ? std::uint64_t(wanted_total) - view.local_cpus : 0;
        why = [ratio, supply, this] {
            return "utilization " + std::to_string(int(std::lround(100 * ratio * target_))) + "% of " +
                   std::to_string(supply) + " cores exceeds target " +
                   std::to_string(int(std::lround(100 * target_))) + "%";
        };
        break;
    }
    case Metric::Utilization: {
        const double wanted_total = std::ceil(double(busy + waiting_cpus) / target_);
        desired_now = wanted_total > double(view.local_cpus) ? std::uint64_t(wanted_total) - view.local_cpus : 0;
        why = [wanted = busy + waiting_cpus, supply, this] {
            return "busy and waiting cores are " +
                   std::to_string(int(std::lround(100 * double(wanted) / double(std::max<std::uint64_t>(1, supply))))) +
                   "% of " + std::to_string(supply) + " cores, above target " +
                   std::to_string(int(std::lround(100 * target_))) + "%";
        };
        break;
    }
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
        // Waiting jobs that cloud cores up or booting cannot take already
        // (they take them in priority order), and how long each would wait
        // locally.
        std::uint64_t spare = 0;
        for (const auto& g : view.groups) {
            const std::uint64_t ready = g.free_up_cpus + g.free_booting_cpus;
            spare += ready > g.routed_pending_cpus ? ready - g.routed_pending_cpus : 0;
        }
        std::size_t first = 0;
        for (; first < waiting.size() && waiting[first]->total_cpus() <= spare; ++first)
            spare -= waiting[first]->total_cpus();
        // A group grows by the cores of the waiting jobs its nodes could
        // run, when it cannot run them all (a GPU job, a CPU group): what
        // else is desired goes to the next group the expander picks among
        // those that run some of the jobs left.  A group that runs every
        // job left, or any group while none waits, grows by the whole
        // desire left.
        std::vector<char> offered(view.groups.size(), 1);
        std::vector<std::size_t> left(waiting_at.size()); // waiting_at entries no hire covers yet
        std::iota(left.begin(), left.end(), 0);
        std::vector<std::size_t> served; // of `left`, those the group's nodes run
        auto serve = [&](const GroupView& g) {
            served.clear();
            std::uint64_t cores = 0;
            for (std::size_t w : left)
                if (view.serves(waiting_at[w], g)) {
                    served.push_back(w);
                    cores += view.pending_cpus[waiting_at[w]];
                }
            return served.size() == left.size() ? missing : std::min(missing, cores);
        };
        bool grew = false;
        while (missing > 0) {
            GroupView* chosen = choose_group(
                *expander_, view.groups, missing,
                [&](const GroupView& g) {
                    return offered[g.index] && g.hireable_nodes > 0 &&
                           (left.empty() || std::any_of(left.begin(), left.end(), [&](std::size_t w) {
                                return view.serves(waiting_at[w], g);
                            }));
                },
                options);
            if (!chosen)
                break;
            offered[chosen->index] = 0;
            const std::uint64_t here = serve(*chosen);
            const std::uint32_t per_node = chosen->group->cpus ? chosen->group->cpus : 1;
            const std::uint32_t wanted =
                std::uint32_t(std::min<std::uint64_t>((here + per_node - 1) / per_node, chosen->hireable_nodes));
            std::uint32_t nodes = wanted;
            if (!gate_.off()) {
                const NodeGroup& group = *chosen->group;
                std::vector<std::size_t> uncovered;
                for (std::size_t w : served)
                    if (w >= first)
                        uncovered.push_back(waiting_at[w]);
                nodes = gate_.worth(group, wanted, waits_.waiting(view, now, uncovered, gate_.horizon_for(group)));
            }
            if (nodes < wanted)
                d.notes.push_back(std::to_string(wanted - nodes) + " of " + std::to_string(wanted) +
                                  " nodes wanted cost more than their jobs' expected local wait at lambda " +
                                  std::to_string(gate_.lambda()));
            if (nodes > 0) {
                d.add(HireNodes{chosen->group->name, nodes}, why());
                chosen->free_booting_cpus += std::uint64_t(nodes) * per_node;
                chosen->hireable_nodes -= nodes;
            }
            grew = true;
            missing -= here;
            std::vector<std::size_t> rest;
            std::set_difference(left.begin(), left.end(), served.begin(), served.end(), std::back_inserter(rest));
            left.swap(rest);
        }
        if (!grew)
            d.notes.push_back("no node group can grow");
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
    // In priority order: a job that does not fit keeps the groups that could
    // run it from the jobs behind it; the others' cores it could not use.
    std::vector<char> held_back(view.groups.size(), 0);
    std::size_t groups_held = 0;
    for (std::size_t w = 0; w < waiting.size() && groups_held < view.groups.size(); ++w) {
        const Job* job = waiting[w];
        const std::uint64_t cpus = job->total_cpus();
        const std::size_t i = waiting_at[w];
        GroupView* chosen = choose_group(
            *expander_, view.groups, cpus,
            [&](const GroupView& g) {
                return !held_back[g.index] && g.free_up_cpus + g.free_booting_cpus >= g.routed_pending_cpus + cpus &&
                       view.serves(i, g);
            },
            options);
        if (!chosen) {
            for (const auto& g : view.groups)
                if (!held_back[g.index] && view.serves(i, g)) {
                    held_back[g.index] = 1;
                    ++groups_held;
                }
            continue;
        }
        chosen->routed_pending_cpus += cpus;
        d.add(RouteToCloud{job->id, chosen->group->name}, "cloud cores are up or booting for it");
    }
    return d;
}

} // namespace burst

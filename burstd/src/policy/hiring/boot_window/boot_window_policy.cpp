#include "policy/hiring/boot_window/boot_window_policy.hpp"

#include "policy/site/first_fit_index.hpp"
#include "policy/site/group_choice.hpp"
#include "policy/site/site_view.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <queue>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace burst {
namespace {

using Release = std::pair<Seconds, std::uint64_t>; // (offset from now, cores freed)
using ReleaseQueue = std::priority_queue<Release, std::vector<Release>, std::greater<Release>>;

// Remaining runtime of a running job, or a negative value when it is not
// expected to end within any window we can reason about: a job past its
// category's mean with no limit.  Algorithm 1's TasksCompleteAt would end
// it now, but runtimes are heavy-tailed, and a job that has outlived the
// mean is likely a long one: ending it now under-hired (doc/policies.md,
// section "boot-window").
Seconds remaining(const Job& job, Seconds estimate, Time now)
{
    const Seconds elapsed = now - job.start_time;
    if (estimate > elapsed)
        return estimate - elapsed;
    if (job.time_limit > 0)
        return std::max<Seconds>(0, job.time_limit - elapsed);
    return -1;
}

} // namespace

BootWindowPolicy::BootWindowPolicy(PolicyParams& params)
    : expander_(make_expander(params.get_choice("expander", "least-waste", expander_names()))),
      gate_(params.get_double("lambda", HUGE_VAL, 0, 1e9))
{
}

Decision BootWindowPolicy::decide(const ClusterState& state, const Clock& clock)
{
    Decision d;
    const Time now = d.time = clock.now();
    if (state.groups.empty())
        return d;
    SiteView& view = site_.build(state);
    for (auto& note : view.needs_notes())
        d.notes.push_back(std::move(note));
    gate_.observe(state); // the boot times of the window too
    if (!gate_.off())
        waits_.begin(view, now);

    // Each group's boot time is its latest measured one (else its configured
    // one), for the window and for its booting nodes alike.  The window is
    // the longest of those of the groups that can grow, so that every node
    // hired now is ready within it.
    std::vector<Seconds> boot(view.groups.size());
    Seconds window = 0;
    Seconds longest = 0;
    bool can_grow = false;
    for (std::size_t g = 0; g < view.groups.size(); ++g) {
        boot[g] = gate_.boot_times().latest(*view.groups[g].group);
        longest = std::max(longest, boot[g]);
        if (view.groups[g].hireable_nodes > 0) {
            window = std::max(window, boot[g]);
            can_grow = true;
        }
    }
    window = std::max<Seconds>(can_grow ? window : longest, 1);

    // Algorithm 1, lines 1-18: play the site forward over the window.
    std::uint64_t avail = view.local_free_cpus;
    ReleaseQueue releases;
    for (std::size_t g = 0; g < view.groups.size(); ++g) {
        const GroupView& gv = view.groups[g];
        avail += gv.free_up_cpus;
        if (gv.free_booting_cpus == 0)
            continue;
        Seconds ready = 0;
        for (const auto& inst : state.instances)
            if (inst.node_group == gv.group->name &&
                (inst.state == InstanceState::Requested || inst.state == InstanceState::Launching))
                ready = std::max(ready, inst.requested_at + boot[g] - now);
        releases.emplace(std::max<Seconds>(0, ready), gv.free_booting_cpus);
    }
    // Cores of draining nodes never come back: their jobs release nothing.
    // Sorted names: few, and searched without hashing every one each decision.
    std::vector<std::string_view> draining;
    for (const auto& node : state.snapshot.nodes)
        if (node.cloud() && node.has(kNodeDrain))
            draining.push_back(node.name);
    std::sort(draining.begin(), draining.end());
    // Cloud jobs running past the window: draining their nodes costs the
    // ready-time estimate only the cores the nodes would have freed.
    std::vector<const Job*> past_window;
    for (std::size_t r = 0; r < view.running.size(); ++r) {
        const Job* job = view.running[r];
        const Seconds left = remaining(*job, runtimes_.estimate(*job), now);
        const bool drains = !draining.empty() &&
                            std::any_of(job->nodes.begin(), job->nodes.end(), [&](const std::string& n) {
                                return std::binary_search(draining.begin(), draining.end(), std::string_view(n));
                            });
        if (left >= 0 && left < window) {
            if (!drains)
                releases.emplace(left, job->total_cpus());
        } else if (view.running_group[r] >= 0) {
            past_window.push_back(job);
        }
    }
    // Greedy first fit in priority order, as Slurm's backfill without
    // reservations would start them; the index finds the next job that fits
    // in O(log n), and runtimes are looked up only for jobs that start.
    const std::vector<std::uint64_t>& sizes = view.pending_cpus;
    FirstFitIndex unstarted(sizes);
    std::vector<char> started(sizes.size(), 0);
    auto dispatch = [&](Seconds t) {
        for (std::size_t i = unstarted.find(0, avail); i != FirstFitIndex::kNone; i = unstarted.find(i, avail)) {
            unstarted.erase(i);
            started[i] = 1;
            avail -= sizes[i];
            const Seconds runtime = runtimes_.estimate(*view.pending[i]);
            if (runtime > 0 && t + runtime < window)
                releases.emplace(t + runtime, sizes[i]);
        }
    };
    dispatch(0);
    while (!releases.empty() && releases.top().first < window) {
        const Seconds t = releases.top().first;
        while (!releases.empty() && releases.top().first == t) {
            avail += releases.top().second;
            releases.pop();
        }
        dispatch(t);
    }

    // Work Queue hands a waiting task to any connected worker with room: a
    // burstable job that cannot start locally now may use cloud cores that
    // are up and free, whether or not this cycle may resize (the play
    // forward above counted those cores as available from now on).
    std::uint64_t local_free = view.local_free_cpus;
    auto cloud_room = [&view] {
        std::uint64_t room = 0;
        for (const auto& g : view.groups)
            room += g.free_up_cpus > g.routed_pending_cpus ? g.free_up_cpus - g.routed_pending_cpus : 0;
        return room;
    };
    for (std::size_t i = 0; i < view.pending.size() && cloud_room() > 0; ++i) {
        const std::uint64_t cpus = sizes[i];
        if (view.pending_group[i] >= 0 || view.pending_burst[i] == BurstOption::Never)
            continue;
        if (cpus <= local_free) {
            local_free -= cpus;
            continue;
        }
        for (auto& g : view.groups)
            if (g.free_up_cpus >= g.routed_pending_cpus + cpus && view.serves(i, g)) {
                g.routed_pending_cpus += cpus;
                view.pending_group[i] = int(&g - view.groups.data());
                d.add(RouteToCloud{view.pending[i]->id, g.group->name}, "cloud cores are up and free for it");
                break;
            }
    }

    std::uint64_t shortage = 0;
    // Burstable, not yet cloud-eligible: indices into view.pending, whose
    // cores the view holds in order (through the Job pointers, in priority
    // order, each job would be a cache miss at a million jobs).
    std::vector<std::size_t> unserved;
    std::vector<std::size_t> short_at; // index in view.pending of the jobs short
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        if (started[i] || view.pending_burst[i] == BurstOption::Never)
            continue;
        shortage += sizes[i];
        short_at.push_back(i);
        if (view.pending_group[i] < 0)
            unserved.push_back(i);
    }

    // Nothing short and no node the drain below could take: nothing to do.
    auto drainable = [&view, &state](std::size_t n) {
        const Node& node = state.snapshot.nodes[n];
        return view.node_group[n] >= 0 && node.cloud() && node.usable();
    };
    auto any_drainable = [&] {
        for (std::size_t n = 0; n < state.snapshot.nodes.size(); ++n)
            if (drainable(n))
                return true;
        return false;
    };
    if (shortage == 0 && (avail == 0 || !any_drainable()))
        return d;
    if (now < next_resize_) {
        d.notes.push_back("last resize less than one boot time (" + std::to_string(int(window)) + " s) ago");
        return d;
    }
    if (shortage > 0) {
        // Hire for the whole shortage in this resize: when the group the
        // expander prefers cannot take all of it (at its size limit, or
        // allowed a probe launch only while its launches fail), its next
        // choice among the groups that can still grow hires for the jobs
        // left, rather than they wait out a window.  A job runs on the
        // nodes of one group (or local ones), so a hire covers only the
        // jobs its group's cores hold whole: the cores of two groups hired
        // for one job would serve it in neither.
        std::vector<ExpansionOption> options;
        std::vector<char> offered(view.groups.size(), 1);
        std::vector<std::size_t> left = short_at; // not covered by a hire yet, in priority order
        std::vector<std::size_t> uncovered;
        bool hired = false;
        bool gated = false;
        auto index = [&view](const GroupView& g) { return std::size_t(&g - view.groups.data()); };
        auto cores_of = [&sizes](const std::vector<std::size_t>& jobs) {
            std::uint64_t cores = 0;
            for (std::size_t i : jobs)
                cores += sizes[i];
            return cores;
        };
        // A group's nodes serve no job that asks for a GPU or a feature they lack.
        auto serves_any_left = [&](const GroupView& g) {
            return std::any_of(left.begin(), left.end(),
                               [&](std::size_t i) { return view.serves(i, g); });
        };
        std::vector<std::size_t> served; // the jobs left that the chosen group's nodes could run
        while (!left.empty()) {
            GroupView* chosen = choose_group(
                *expander_, view.groups, cores_of(left),
                [&](const GroupView& g) { return offered[index(g)] && g.hireable_nodes > 0 && serves_any_left(g); },
                options);
            if (!chosen)
                break;
            GroupView& g = *chosen;
            offered[index(g)] = 0;
            served.clear();
            std::copy_if(left.begin(), left.end(), std::back_inserter(served),
                         [&](std::size_t i) { return view.serves(i, g); });
            const std::uint64_t short_left = cores_of(served);
            const std::uint32_t per_node = g.group->cpus ? g.group->cpus : 1;
            const std::uint32_t wanted =
                std::uint32_t(std::min<std::uint64_t>((short_left + per_node - 1) / per_node, g.hireable_nodes));
            std::uint32_t nodes = wanted;
            if (!gate_.off()) {
                // How long each job it serves is expected to wait for local cores.
                const NodeGroup& group = *g.group;
                nodes = gate_.worth(group, wanted, waits_.waiting(view, now, served, gate_.horizon_for(group)));
                gated = gated || nodes < wanted;
            }
            if (nodes == 0)
                continue;
            d.add(HireNodes{g.group->name, nodes}, std::to_string(shortage) +
                                                       " cores short when nodes booted now (" +
                                                       std::to_string(int(window)) + " s) would be ready");
            hired = true;
            std::uint64_t free = std::uint64_t(nodes) * per_node;
            g.free_booting_cpus += free;
            g.hireable_nodes -= nodes;
            const int gi = int(index(g));
            for (std::size_t i : unserved) {
                const std::uint64_t cpus = sizes[i];
                if (view.pending_group[i] >= 0 || g.free_up_cpus + g.free_booting_cpus < g.routed_pending_cpus + cpus ||
                    !view.serves(i, g))
                    continue;
                g.routed_pending_cpus += cpus;
                view.pending_group[i] = gi;
                d.add(RouteToCloud{view.pending[i]->id, g.group->name}, "still waiting when hired nodes are ready");
            }
            // Covered: the jobs routed here, then those the new cores hold
            // whole; a job routed to another group can run only there.
            uncovered.clear();
            for (std::size_t i : left) {
                const int routed = view.pending_group[i];
                if (routed == gi || (routed < 0 && sizes[i] <= free && view.serves(i, g)))
                    free -= std::min(free, sizes[i]);
                else
                    uncovered.push_back(i);
            }
            left.swap(uncovered);
        }
        const std::string why_short =
            gated ? "their expected local wait costs less than a node at lambda " + std::to_string(gate_.lambda())
                  : "no node group can grow";
        if (!hired) {
            d.notes.push_back(std::to_string(shortage) + " cores short at ready time; " + why_short);
            return d;
        }
        if (!left.empty())
            d.notes.push_back(std::to_string(cores_of(left)) + " of " + std::to_string(shortage) +
                              " cores short at ready time not hired for; " + why_short);
        next_resize_ = now + window;
        return d;
    }
    // Lines 22-23: cores spare at ready time; drain cloud nodes (HTA stops a
    // worker once its running tasks are done), the most expensive group
    // first.  A node costs the estimate the cores it would have free at
    // ready time, so nodes busy past the window go first (they cost
    // nothing: they power down when their jobs end), then the least busy,
    // and the site never drains below what the estimate needs.
    // Cores each cloud node keeps busy past the window.
    std::unordered_map<std::string_view, double> busy_past_window;
    for (const Job* job : past_window)
        for (const auto& n : job->nodes)
            busy_past_window[n] += double(job->total_cpus()) / double(job->nodes.size());
    std::vector<const GroupView*> by_price;
    for (const auto& g : view.groups)
        by_price.push_back(&g);
    std::sort(by_price.begin(), by_price.end(), [](const GroupView* a, const GroupView* b) {
        return a->group->price_per_cpu_second() > b->group->price_per_cpu_second();
    });
    ReleaseNodes release;
    release.drain_first = true;
    for (const GroupView* g : by_price) {
        std::vector<std::pair<std::uint64_t, const Node*>> up; // (cores freed by ready time, node)
        for (std::size_t n = 0; n < state.snapshot.nodes.size(); ++n)
            if (const Node& node = state.snapshot.nodes[n]; view.node_group[n] == int(g->index) && drainable(n)) {
                auto it = busy_past_window.find(node.name);
                const double busy = it == busy_past_window.end() ? 0 : std::min<double>(it->second, node.cpus);
                up.emplace_back(node.cpus - std::uint64_t(std::floor(busy)), &node);
            }
        std::stable_sort(up.begin(), up.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        // Jobs routed here wait for free cores on nodes that stay up; were
        // those drained, Slurm would resume new nodes for them.
        std::uint64_t free_kept = g->free_up_cpus;
        for (const auto& [cost, node] : up) {
            if (cost > avail)
                break;
            if (free_kept - node->free_cpus() < g->routed_pending_cpus)
                continue;
            free_kept -= node->free_cpus();
            release.nodes.push_back(node->name);
            avail -= cost;
        }
    }
    if (!release.nodes.empty()) {
        d.add(std::move(release), "cores stay spare over the next boot time: drain and power down");
        next_resize_ = now + window;
    }
    return d;
}

} // namespace burst

#include "policy/hiring/always/always_policy.hpp"

#include "policy/site/group_choice.hpp"
#include "policy/site/site_view.hpp"

#include <algorithm>

namespace burst {

AlwaysPolicy::AlwaysPolicy(PolicyParams& params)
    : expander_(make_expander(params.get_choice("expander", "price", expander_names())))
{
}

Decision AlwaysPolicy::decide(const ClusterState& state, const Clock& clock)
{
    Decision d;
    d.time = clock.now();
    SiteView& view = site_.build(state);
    for (auto& note : view.needs_notes())
        d.notes.push_back(std::move(note));
    std::uint64_t local_free = view.local_free_cpus;
    std::size_t no_room = 0;
    std::vector<ExpansionOption> options;
    // The widest room any group has only shrinks as jobs are routed; jobs
    // wider than it are counted without asking the expander.
    auto widest_room = [&view] {
        std::uint64_t room = 0;
        for (const auto& g : view.groups)
            room = std::max(room, g.free_capacity());
        return room;
    };
    std::uint64_t room = widest_room();
    for (std::size_t i = 0; i < view.pending.size(); ++i) {
        const std::uint64_t cpus = view.pending_cpus[i];
        const BurstOption burst = view.pending_burst[i];
        if (view.pending_group[i] >= 0)
            continue; // already cloud-eligible; its cores are counted as promised
        // First-come first-served against the cores free now: a job that
        // fits would start locally in this scheduling pass.
        if (burst != BurstOption::Prefer && cpus <= local_free) {
            local_free -= cpus;
            continue;
        }
        if (burst == BurstOption::Never)
            continue;
        if (cpus > room) {
            ++no_room;
            continue;
        }
        GroupView* chosen = choose_group(
            *expander_, view.groups, cpus,
            [&view, cpus, i](const GroupView& g) { return g.free_capacity() >= cpus && view.serves(i, g); },
            options);
        if (!chosen) {
            ++no_room;
            continue;
        }
        chosen->routed_pending_cpus += cpus;
        room = widest_room();
        d.add(RouteToCloud{view.pending[i]->id, chosen->group->name},
              burst == BurstOption::Prefer ? "job prefers the cloud"
                                                : "cannot start on local nodes now (" + std::to_string(cpus) +
                                                      " cores wanted, " + std::to_string(local_free) + " free)");
    }
    if (no_room)
        d.notes.push_back(std::to_string(no_room) + " burstable job(s) wait: no node group has room");
    return d;
}

} // namespace burst

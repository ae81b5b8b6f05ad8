#include "policy/hiring/fixed_delay/fixed_delay_policy.hpp"

#include "policy/site/group_choice.hpp"
#include "policy/site/site_view.hpp"

#include <algorithm>

namespace burst {

FixedDelayPolicy::FixedDelayPolicy(PolicyParams& params)
    : delay_(params.get_duration("delay", 600, 0, 365.0 * 86400)),
      expander_(make_expander(params.get_choice("expander", "price", expander_names())))
{
}

Decision FixedDelayPolicy::decide(const ClusterState& state, const Clock& clock)
{
    Decision d;
    const Time now = d.time = clock.now();
    SiteView& view = site_.build(state);
    for (auto& note : view.needs_notes())
        d.notes.push_back(std::move(note));
    std::uint64_t local_free = view.local_free_cpus;
    std::vector<ExpansionOption> options;
    std::size_t no_room = 0;
    for (std::size_t i = 0; i < view.pending.size(); ++i) {
        const std::uint64_t cpus = view.pending_cpus[i];
        const BurstOption burst = view.pending_burst[i];
        if (view.pending_group[i] >= 0)
            continue;
        if (burst != BurstOption::Prefer && cpus <= local_free) {
            local_free -= cpus;
            continue;
        }
        const Seconds waited = now - view.pending_since[i];
        if (burst == BurstOption::Never || (burst != BurstOption::Prefer && waited < delay_))
            continue;
        GroupView* chosen = choose_group(
            *expander_, view.groups, cpus,
            [&view, cpus, i](const GroupView& g) { return g.free_capacity() >= cpus && view.serves(i, g); },
            options);
        if (!chosen) {
            ++no_room;
            continue;
        }
        chosen->routed_pending_cpus += cpus;
        d.add(RouteToCloud{view.pending[i]->id, chosen->group->name},
              burst == BurstOption::Prefer ? "job prefers the cloud"
                                                : "waited " + std::to_string(int(waited)) + " s, longer than " +
                                                      std::to_string(int(delay_)) + " s");
    }
    if (no_room)
        d.notes.push_back(std::to_string(no_room) + " job(s) past the delay wait: no node group has room");
    return d;
}

} // namespace burst

#include "sim/engine/group_launches.hpp"

#include "sim/unit_draw.hpp"

#include <algorithm>

namespace burst {

GroupLaunches::GroupLaunches(const std::vector<NodeGroup>& groups,
                             const std::map<std::string, CapacityShortage>& shortages, std::uint64_t seed,
                             Time origin)
    : rng_(seed ^ 0xc0ffee5eedULL), origin_(origin)
{
    for (const auto& g : groups) {
        auto s = shortages.find(g.name);
        // Outcomes are reported as soon as they are known: a probe never
        // outlives the call that admitted it, so it needs no timeout.
        groups_.push_back(Group{g.name, s == shortages.end() ? CapacityShortage{} : s->second,
                                GroupHealth(g.recovery, 0), GroupBackoff{}, 0});
    }
}

bool GroupLaunches::short_of_capacity(const Group& g, Time now)
{
    if (g.shortage.stocked_out(now - origin_))
        return true;
    if (g.shortage.rate <= 0)
        return false;
    return unit_draw(rng_) < g.shortage.rate;
}

void GroupLaunches::count_opening(Group& g, Time now)
{
    const GroupHealthView v = g.health.view(now);
    if (v.state != BreakerState::Open || v.open_until == g.open_until)
        return;
    // An open period starts only once the previous one is over (the breaker
    // opens from closed or from a probe), so periods never overlap.
    g.stats.backed_off += v.open_until - now;
    g.open_until = v.open_until;
    g.stats.breaker_opened = v.opened;
}

LaunchOutcome GroupLaunches::launch(std::size_t group, Time now)
{
    Group& g = groups_.at(group);
    const Admission admission = g.health.admit(now);
    if (admission.refused()) {
        ++g.stats.refused_launches;
        return LaunchOutcome::Refused;
    }
    g.stats.probes += admission.probe();
    if (short_of_capacity(g, now)) {
        ++g.stats.capacity_failures;
        g.health.launch_failed(ProviderError{ProviderErrorKind::Capacity, "simulated stock-out", 0}, now,
                               admission.probe());
        count_opening(g, now);
        return LaunchOutcome::CapacityFailure;
    }
    g.health.launched(now, admission.probe());
    return LaunchOutcome::Launched;
}

void GroupLaunches::registered(std::size_t group, Time now)
{
    groups_.at(group).health.registered(now);
}

std::map<std::string, std::uint32_t> GroupLaunches::hire_limits(Time now) const
{
    std::map<std::string, std::uint32_t> limits;
    for (const auto& g : groups_)
        if (auto l = g.health.hire_limit(now))
            limits.emplace(g.name, *l);
    return limits;
}

std::vector<GroupBackoff> GroupLaunches::backoff(Time end) const
{
    std::vector<GroupBackoff> out;
    for (const auto& g : groups_) {
        GroupBackoff b = g.stats;
        b.backed_off -= std::max<Seconds>(0, g.open_until - end);
        out.push_back(b);
    }
    return out;
}

} // namespace burst

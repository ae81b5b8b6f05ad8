#include "app/instances/placement_backoff.hpp"

#include <algorithm>

namespace burst {

std::vector<Placement> PlacementBackoff::candidates(const std::vector<std::string>& types,
                                                    const std::vector<std::string>& zones)
{
    const std::vector<std::string> any{std::string()};
    const auto& ts = types.empty() ? any : types;
    const auto& zs = zones.empty() ? any : zones;
    std::vector<Placement> out;
    for (const auto& t : ts)
        for (const auto& z : zs)
            out.push_back({t, z});
    return out;
}

std::vector<Placement> PlacementBackoff::order(const std::string& group, const std::vector<Placement>& candidates,
                                               Time now) const
{
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<Placement> out = candidates;
    std::stable_partition(out.begin(), out.end(), [&](const Placement& p) {
        auto it = entries_.find(Key{group, p.instance_type, p.zone});
        return it == entries_.end() || it->second.until <= now;
    });
    return out;
}

void PlacementBackoff::short_of_capacity(const std::string& group, const Placement& where,
                                         const GroupRecovery& recovery, Time now)
{
    std::lock_guard<std::mutex> lock(mutex_);
    auto [it, fresh] = entries_.try_emplace(Key{group, where.instance_type, where.zone});
    Entry& e = it->second;
    // Several workers may meet the same shortage at once: only a failure
    // after the wait ended (a failed probe) doubles it.
    if (fresh)
        e.cool_down = recovery.cool_down;
    else if (e.until <= now)
        e.cool_down = std::min(recovery.max_cool_down, e.cool_down * 2);
    e.until = std::max(e.until, now + e.cool_down);
    ++e.shortages;
}

void PlacementBackoff::launched(const std::string& group, const Placement& where)
{
    std::lock_guard<std::mutex> lock(mutex_);
    entries_.erase(Key{group, where.instance_type, where.zone});
}

std::vector<PlacementBackoffView> PlacementBackoff::views(Time now) const
{
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<PlacementBackoffView> out;
    for (const auto& [key, e] : entries_)
        out.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), e.until > now, e.until, e.cool_down,
                       e.shortages});
    return out;
}

} // namespace burst

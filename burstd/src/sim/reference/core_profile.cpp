#include "sim/reference/core_profile.hpp"

#include <iterator>
#include <limits>
#include <stdexcept>

namespace burst {

CoreProfile::CoreProfile(std::uint32_t cores) : total_(cores)
{
    free_.emplace(std::numeric_limits<Time>::lowest(), cores);
}

Time CoreProfile::earliest_fit(Time from, Seconds duration, std::uint32_t cores) const
{
    if (cores > total_)
        throw std::invalid_argument("CoreProfile: " + std::to_string(cores) + " cores wanted of " +
                                    std::to_string(total_));
    if (!(duration > 0) || cores == 0)
        return from;
    auto it = std::prev(free_.upper_bound(from)); // the step holding `from`
    Time start = from;
    while (true) {
        auto step = it;
        while (step != free_.end() && step->first < start + duration && step->second >= cores)
            ++step;
        if (step == free_.end() || step->first >= start + duration)
            return start;
        // `step` is too full: the hole can only begin at a later step with room.
        it = std::next(step);
        while (it != free_.end() && it->second < cores)
            ++it;
        // The last step has every core free (reservations all end).
        start = it->first;
    }
}

std::map<Time, std::int64_t>::iterator CoreProfile::split(Time t)
{
    auto it = free_.lower_bound(t);
    if (it != free_.end() && it->first == t)
        return it;
    const std::int64_t before = std::prev(it)->second;
    return free_.emplace_hint(it, t, before);
}

void CoreProfile::reserve(Time start, Seconds duration, std::uint32_t cores)
{
    if (!(duration > 0) || cores == 0)
        return;
    auto first = split(start);
    auto last = split(start + duration);
    for (auto it = first; it != last; ++it)
        it->second -= cores;
}

void CoreProfile::reserve_all(const std::vector<Span>& spans)
{
    // The profile as changes at its steps, plus each span's two changes
    // (kept even when they cancel: reserve() splits there too), summed back.
    std::map<Time, std::int64_t> delta;
    std::int64_t before = 0;
    for (const auto& [t, cores] : free_) {
        delta.emplace_hint(delta.end(), t, cores - before);
        before = cores;
    }
    for (const auto& s : spans) {
        if (!(s.duration > 0) || s.cores == 0)
            continue;
        delta[s.start] -= s.cores;
        delta[s.start + s.duration] += s.cores;
    }
    free_.clear();
    std::int64_t level = 0;
    for (const auto& [t, d] : delta) {
        level += d;
        free_.emplace_hint(free_.end(), t, level);
    }
}

void CoreProfile::forget_before(Time t)
{
    auto holding = std::prev(free_.upper_bound(t));
    if (holding == free_.begin())
        return;
    const std::int64_t value = holding->second;
    free_.erase(free_.begin(), std::next(holding));
    free_.emplace(std::numeric_limits<Time>::lowest(), value);
}

} // namespace burst

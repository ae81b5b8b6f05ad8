#include "policy/hiring/forecast/slot_scarcity.hpp"

#include <algorithm>
#include <iterator>

namespace burst {

SlotScarcity::Totals SlotScarcity::totals_at(Time t) const
{
    if (marks_.empty() || t <= marks_.front().at)
        return {marks_.empty() ? 0 : marks_.front().blocked_seconds,
                marks_.empty() ? 0 : marks_.front().blocked_core_seconds};
    const auto it =
        std::prev(std::upper_bound(marks_.begin(), marks_.end(), t, [](Time v, const Mark& m) { return v < m.at; }));
    const double span = t - it->at;
    return {it->blocked_seconds + (it->blocked_cores > 0 ? span : 0),
            it->blocked_core_seconds + it->blocked_cores * span};
}

void SlotScarcity::record(Time now, double blocked_cores)
{
    if (!marks_.empty() && now <= marks_.back().at) {
        marks_.back().blocked_cores = blocked_cores; // same decision time: the later record holds
        return;
    }
    if (!marks_.empty() && marks_.back().blocked_cores == blocked_cores)
        return; // still as it was: the last mark covers it
    const Totals t = totals_at(now);
    marks_.push_back(Mark{now, blocked_cores, t.seconds, t.core_seconds});
}

double SlotScarcity::denied(Time now, Seconds window, double cores) const
{
    const Totals from = totals_at(now - window);
    const Totals to = totals_at(now);
    return std::min(cores * (to.seconds - from.seconds), to.core_seconds - from.core_seconds);
}

void SlotScarcity::keep(Seconds span)
{
    longest_ = std::max(longest_, span);
}

void SlotScarcity::forget(Time now)
{
    // The mark in force at now − longest_ is still needed.
    while (marks_.size() >= 2 && marks_[1].at <= now - longest_)
        marks_.pop_front();
}

} // namespace burst

#include "policy/runtime/local_start_forecast.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <queue>
#include <utility>

namespace burst {

LocalStartForecast::LocalStartForecast(std::uint64_t free_now, const std::vector<ForecastRunning>& running)
    : free_now_(free_now)
{
    std::vector<std::pair<Seconds, std::size_t>> by_end; // planned end, slot
    by_end.reserve(running.size());
    releases_.reserve(running.size());
    for (const auto& r : running)
        if (r.expected_left < kNotForeseen) {
            // A job is never expected to outlast the scheduler's view of it.
            by_end.emplace_back(std::max(r.expected_left, r.limit_left), slots_.size());
            releases_.emplace_back(r.expected_left, slots_.size());
            slots_.push_back(RunningSlot{0, r.cores});
        }
    std::sort(by_end.begin(), by_end.end());
    ends_.reserve(by_end.size());
    for (const auto& [end, slot] : by_end) {
        slots_[slot].end = ends_.size();
        ends_.emplace_back(end, slots_[slot].cores);
    }
    std::make_heap(releases_.begin(), releases_.end(), std::greater<Release>());
}

std::vector<Seconds> LocalStartForecast::starts(const std::vector<ForecastPending>& pending,
                                                std::uint32_t backfill_window, Seconds horizon) const
{
    const std::size_t n = pending.size();
    std::vector<Seconds> start(n, kNotForeseen);
    // The scheduler's view of when cores come back: ends -> cores.  The
    // running jobs' ends are sorted (once a decision) and a released one
    // keeps its place with no cores, so that finding a reservation reads an
    // array rather than chases thousands of tree nodes at every pass; the
    // ends of jobs the play starts come in any order, and fewer: a multimap.
    std::vector<PlannedEnd> running_ends = ends_;
    std::multimap<Seconds, std::uint64_t> started_ends;
    struct StartedSlot {
        std::multimap<Seconds, std::uint64_t>::iterator end;
        std::uint64_t cores;
    };
    std::vector<StartedSlot> started; // slot slots_.size() + k
    started.reserve(n);
    std::priority_queue<Release, std::vector<Release>, std::greater<Release>> releases(std::greater<Release>(),
                                                                                       releases_);
    auto occupy = [&](Seconds expected_end, Seconds planned_end, std::uint64_t cores) {
        started.push_back(StartedSlot{started_ends.emplace(std::max(expected_end, planned_end), cores), cores});
        releases.emplace(std::min(expected_end, planned_end), slots_.size() + started.size() - 1);
    };
    // The cores of slot `s`, given back.
    auto release = [&](std::size_t s) {
        if (s < slots_.size()) {
            running_ends[slots_[s].end].second = 0;
            return slots_[s].cores;
        }
        const StartedSlot& slot = started[s - slots_.size()];
        started_ends.erase(slot.end);
        return slot.cores;
    };
    std::size_t first_running_end = 0; // before it, every running end is released
    std::uint64_t free = free_now_;

    // Unstarted jobs as a linked list in priority order behind a sentinel.
    const std::size_t head = n, end = n + 1;
    std::vector<std::size_t> succ(n + 1);
    for (std::size_t i = 0; i < n; ++i)
        succ[i] = i + 1 < n ? i + 1 : end;
    succ[head] = n > 0 ? 0 : end;

    auto pass = [&](Seconds t) {
        bool blocked = false;
        Seconds shadow = kNotForeseen;
        std::uint64_t extra = 0;
        std::uint32_t tested = 0;
        for (std::size_t prev = head, i = succ[head]; i != end;) {
            const ForecastPending& job = pending[i];
            bool go = false;
            if (!blocked) {
                if (job.cores <= free) {
                    go = true;
                } else {
                    blocked = true;
                    std::uint64_t avail = free;
                    while (first_running_end < running_ends.size() && running_ends[first_running_end].second == 0)
                        ++first_running_end;
                    // The two lists of ends merged in time order.
                    std::size_t r = first_running_end;
                    auto s = started_ends.begin();
                    while (r < running_ends.size() || s != started_ends.end()) {
                        const bool from_running =
                            r < running_ends.size() && (s == started_ends.end() || running_ends[r].first <= s->first);
                        const Seconds when = from_running ? running_ends[r].first : s->first;
                        avail += from_running ? running_ends[r++].second : (s++)->second;
                        if (avail >= job.cores) {
                            // Every job planned to end then frees its cores
                            // then: spare for backfill too.
                            for (; r < running_ends.size() && running_ends[r].first == when; ++r)
                                avail += running_ends[r].second;
                            for (; s != started_ends.end() && s->first == when; ++s)
                                avail += s->second;
                            shadow = std::max(when, t);
                            extra = avail - job.cores;
                            break;
                        }
                    }
                }
            } else {
                if (free == 0 || ++tested > backfill_window)
                    break;
                if (job.cores <= free) {
                    const bool ends_before = t + job.limit <= shadow;
                    if (ends_before || job.cores <= extra) {
                        go = true;
                        if (!ends_before)
                            extra -= job.cores;
                    }
                }
            }
            if (go) {
                start[i] = t;
                free -= job.cores;
                occupy(t + job.expected, t + job.limit, job.cores);
                succ[prev] = succ[i];
                i = succ[i];
            } else {
                prev = i;
                i = succ[i];
            }
        }
    };

    pass(0);
    while (succ[head] != end && !releases.empty()) {
        const Seconds t = releases.top().first;
        if (t > horizon)
            break;
        while (!releases.empty() && releases.top().first == t) {
            const std::size_t slot = releases.top().second;
            releases.pop();
            free += release(slot);
        }
        pass(t);
    }
    return start;
}

std::vector<Seconds> forecast_local_starts(std::uint64_t free_now, const std::vector<ForecastRunning>& running,
                                           const std::vector<ForecastPending>& pending,
                                           std::uint32_t backfill_window, Seconds horizon)
{
    return LocalStartForecast(free_now, running).starts(pending, backfill_window, horizon);
}

} // namespace burst

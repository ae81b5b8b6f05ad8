#include "policy/runtime/local_start_forecast.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <queue>
#include <utility>

namespace burst {

std::vector<Seconds> forecast_local_starts(std::uint64_t free_now, const std::vector<ForecastRunning>& running,
                                           const std::vector<ForecastPending>& pending,
                                           std::uint32_t backfill_window, Seconds horizon)
{
    const std::size_t n = pending.size();
    std::vector<Seconds> start(n, kNotForeseen);
    using Slot = std::multimap<Seconds, std::uint64_t>::iterator;
    std::multimap<Seconds, std::uint64_t> planned; // the scheduler's view of ends → cores
    using Release = std::pair<Seconds, std::size_t>; // expected end, slot index
    std::priority_queue<Release, std::vector<Release>, std::greater<Release>> releases;
    std::vector<Slot> slots;
    slots.reserve(running.size() + n);
    std::vector<std::uint64_t> slot_cores;
    slot_cores.reserve(running.size() + n);
    auto occupy = [&](Seconds expected_end, Seconds planned_end, std::uint64_t cores) {
        // A job is never expected to outlast the scheduler's view of it.
        slots.push_back(planned.emplace(std::max(expected_end, planned_end), cores));
        slot_cores.push_back(cores);
        releases.emplace(std::min(expected_end, planned_end), slots.size() - 1);
    };
    std::uint64_t free = free_now;
    for (const auto& r : running)
        if (r.expected_left < kNotForeseen)
            occupy(r.expected_left, std::max(r.expected_left, r.limit_left), r.cores);

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
                    for (auto it = planned.begin(); it != planned.end(); ++it) {
                        avail += it->second;
                        if (avail >= job.cores) {
                            // Every job planned to end then frees its cores
                            // then: spare for backfill too.
                            for (auto same = std::next(it); same != planned.end() && same->first == it->first; ++same)
                                avail += same->second;
                            shadow = std::max(it->first, t);
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
            const std::size_t s = releases.top().second;
            releases.pop();
            free += slot_cores[s];
            planned.erase(slots[s]);
        }
        pass(t);
    }
    return start;
}

} // namespace burst

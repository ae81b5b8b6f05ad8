#include "sim/reference/cloud_work_bound.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

namespace burst {

double max_local_work(std::vector<WorkWindow> windows, std::uint64_t cores)
{
    std::sort(windows.begin(), windows.end(),
              [](const WorkWindow& a, const WorkWindow& b) { return a.release < b.release; });
    const double rate = double(cores);
    using Open = std::pair<Time, double>; // (deadline, work left)
    std::priority_queue<Open, std::vector<Open>, std::greater<Open>> open;
    double done = 0;
    Time now = windows.empty() ? 0 : windows.front().release;
    std::size_t next = 0;
    while (next < windows.size() || !open.empty()) {
        const Time until = next < windows.size() ? windows[next].release : std::numeric_limits<Time>::infinity();
        // Fill [now, until) earliest deadline first; expired work is cloud work.
        while (!open.empty() && now < until) {
            auto [deadline, left] = open.top();
            open.pop();
            if (deadline <= now)
                continue;
            const Time stop = std::min(deadline, until);
            const double can = rate * (stop - now);
            if (left <= can) {
                done += left;
                now += left / rate;
            } else {
                done += can;
                now = stop;
                if (stop < deadline)
                    open.emplace(deadline, left - can);
            }
        }
        if (next == windows.size())
            break;
        now = std::max(now, windows[next].release);
        for (; next < windows.size() && windows[next].release == now; ++next)
            if (windows[next].work > 0 && windows[next].deadline > windows[next].release)
                open.emplace(windows[next].deadline, windows[next].work);
    }
    return done;
}

CloudWorkBound cloud_work_bound(const SimConfig& config, const SimResult& run)
{
    CloudWorkBound b;
    std::vector<WorkWindow> windows;
    windows.reserve(run.jobs.size());
    for (const auto& j : run.jobs) {
        const double speed = j.group >= 0 ? config.groups[std::size_t(j.group)].speed : 1.0;
        const Seconds local_runtime = (j.end - j.start) * speed;
        const double work = double(j.cpus) * local_runtime;
        b.total_work += work;
        windows.push_back(WorkWindow{j.submit, j.start + local_runtime, work});
    }
    b.local_work = std::min(b.total_work, max_local_work(std::move(windows), config.local_cores));
    const double missing = std::max(0.0, b.total_work - b.local_work);
    double fastest = 0, cheapest = std::numeric_limits<double>::infinity();
    for (const auto& g : config.groups) {
        fastest = std::max(fastest, g.speed);
        cheapest = std::min(cheapest, g.price_per_hour / 3600 / double(g.cpus) / g.speed);
    }
    if (missing > 0 && fastest > 0) {
        b.cloud_core_seconds = missing / fastest;
        b.cloud_cost = missing * cheapest;
    }
    return b;
}

} // namespace burst

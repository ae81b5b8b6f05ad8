#include "policy/forecast_policy.hpp"

#include "policy/local_start_forecast.hpp"
#include "policy/reason_text.hpp"
#include "policy/site_view.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace burst {
namespace {

std::string seconds_text(Seconds s)
{
    if (std::isinf(s))
        return "beyond the forecast";
    std::ostringstream out;
    out.precision(0);
    out << std::fixed << s << " s";
    return out.str();
}

struct Quote {
    Seconds boot;
    double cost;
};

// What routing `cores` cores for `runtime` to a group adds to the bill, and
// how long the job waits for its nodes.  Cores free on nodes that are up
// (or booting) and not promised to routed jobs are paid for anyway while
// the node is on: the job costs its share of the node for its runtime, and
// waits no boot (or the boot, if the node is still booting).  Otherwise new
// whole nodes are resumed: boot + runtime, at least the minimum billed.
Quote quote(const GroupView& g, std::uint64_t cores, Seconds runtime)
{
    const NodeGroup& group = *g.group;
    const double node_second = group.price_per_hour / 3600;
    const double share = double(cores) / double(group.cpus);
    const std::uint64_t warm = g.free_up_cpus > g.routed_pending_cpus ? g.free_up_cpus - g.routed_pending_cpus : 0;
    if (warm >= cores)
        return {0, share * node_second * runtime / group.speed};
    if (warm + g.free_booting_cpus >= cores)
        return {group.boot_time, share * node_second * runtime / group.speed};
    const std::uint64_t nodes = (cores + group.cpus - 1) / group.cpus;
    return {group.boot_time,
            double(nodes) * node_second * std::max(group.min_billed, group.boot_time + runtime / group.speed)};
}

} // namespace

ForecastPolicy::ForecastPolicy(PolicyParams& params)
    : lambda_(params.get_double("lambda", 1.0, 0, 1e9)),
      depth_(params.get_uint("depth", 500, 1, 100000000)),
      backfill_window_(params.get_uint("backfill_window", 100, 1, 100000000)),
      reforecasts_(params.get_uint("reforecasts", 4, 0, 1000)),
      queue_benefit_(params.get_choice("benefit", "queue", {"self", "queue"}) == "queue"),
      model_(params.get_double("max_error", -1, 0, 1))
{
}

Decision ForecastPolicy::decide(const ClusterState& state, const Clock& clock)
{
    Decision d;
    const Time now = d.time = clock.now();
    model_.begin_cycle();
    if (state.groups.empty())
        return d;
    SiteView view = SiteView::of(state);

    std::vector<ForecastRunning> running;
    running.reserve(view.running.size());
    for (const Job* job : view.running) {
        model_.note(*job);
        if (view.group_of(*job) >= 0)
            continue;
        const Seconds elapsed = now - job->start_time;
        const Seconds expected = model_.expected(*job);
        const Seconds left = model_.remaining(elapsed, expected, job->time_limit);
        const Seconds limit_left =
            job->time_limit > 0 ? std::max<Seconds>(0, job->time_limit - elapsed) : left;
        running.push_back(ForecastRunning{left, limit_left, job->total_cpus()});
    }

    // The local queue (routed jobs are expected in the cloud), and which of
    // its jobs could burst at what cost.
    struct Candidate {
        std::size_t queue_index;
        std::size_t view_index;
        GroupView* group;
        Seconds boot;
        double cost;
    };
    std::vector<ForecastPending> queue;
    std::vector<Candidate> candidates;
    Seconds horizon = 0;
    const std::size_t n = std::min<std::size_t>(depth_, view.pending.size());
    queue.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Job* job = view.pending[i];
        model_.note(*job);
        if (view.pending_group[i] >= 0)
            continue;
        const Seconds expected = model_.expected(*job);
        const std::uint64_t cores = job->total_cpus();
        queue.push_back(ForecastPending{cores, expected, job->time_limit > 0 ? job->time_limit : expected});
        if (job->burst == BurstOption::Never)
            continue;
        GroupView* best = nullptr;
        double best_cost = 0;
        Seconds best_boot = 0;
        for (auto& g : view.groups) {
            if (g.free_capacity() < cores)
                continue;
            const auto [boot, cost] = quote(g, cores, expected);
            if (!best || cost < best_cost) {
                best = &g;
                best_cost = cost;
                best_boot = boot;
            }
        }
        if (!best)
            continue;
        candidates.push_back(Candidate{queue.size() - 1, i, best, best_boot, best_cost});
        if (job->burst != BurstOption::Prefer)
            horizon = std::max(horizon, lambda_ > 0 ? best_boot + best_cost * 3600 / (lambda_ * double(cores))
                                                    : kNotForeseen);
    }
    if (candidates.empty())
        return d;
    // Starts of the queue without the jobs routed so far (and without
    // `also`, when given); routed jobs' entries are left at 0.
    std::vector<bool> routed(queue.size(), false);
    std::uint32_t plays = 0;
    auto play = [&](std::size_t also) {
        std::vector<ForecastPending> rest;
        std::vector<std::size_t> index;
        rest.reserve(queue.size());
        std::uint64_t cores = 0;
        for (std::size_t i = 0; i < queue.size(); ++i)
            if (!routed[i] && i != also) {
                rest.push_back(queue[i]);
                index.push_back(i);
                cores += queue[i].cores;
            }
        std::vector<Seconds> out(queue.size(), 0);
        if (cores <= view.local_free_cpus)
            return out; // everything starts in this scheduling pass
        ++plays;
        const auto s = forecast_local_starts(view.local_free_cpus, running, rest, backfill_window_, horizon);
        for (std::size_t k = 0; k < index.size(); ++k)
            out[index[k]] = s[k];
        return out;
    };
    // Waiting saved by the others when `start` becomes `alt`, both cut at
    // the horizon (beyond it the forecast knows no more).
    auto others_saved = [&](const std::vector<Seconds>& start, const std::vector<Seconds>& alt, std::size_t self) {
        double sum = 0;
        for (std::size_t i = 0; i < queue.size(); ++i)
            if (i != self && !routed[i])
                sum += double(queue[i].cores) *
                       std::max<Seconds>(0, std::min(start[i], horizon) - std::min(alt[i], horizon));
        return lambda_ * sum / 3600;
    };
    std::vector<Seconds> start = play(queue.size());
    bool stale = false;

    std::size_t declined = 0;
    for (const auto& c : candidates) {
        const Job* job = view.pending[c.view_index];
        const bool prefer = job->burst == BurstOption::Prefer;
        const std::uint64_t cores = queue[c.queue_index].cores;
        if (c.group->free_capacity() < cores)
            continue; // taken by jobs routed earlier in this decision
        // Jobs routed before this one free cores for it: look again.
        if (stale && plays < reforecasts_ + 1 && start[c.queue_index] > 0 && !prefer) {
            start = play(queue.size());
            stale = false;
        }
        const Seconds q = start[c.queue_index];
        if (!prefer && q == 0)
            continue;
        double saved = lambda_ * double(cores) * (q - c.boot) / 3600;
        std::string why;
        if (!prefer && !(saved > c.cost) && queue_benefit_ && lambda_ > 0 && plays < reforecasts_ + 1) {
            // Bursting it may also let the jobs behind it start sooner
            // (a blocked head's reservation holds cores back).
            std::vector<Seconds> alt = play(c.queue_index);
            const double behind = others_saved(start, alt, c.queue_index);
            if (saved + behind > c.cost) {
                saved += behind;
                start = std::move(alt);
                stale = false;
                why = " (" + money(behind) + " of it by the jobs behind)";
            }
        }
        if (!prefer && !(saved > c.cost)) {
            ++declined;
            continue;
        }
        routed[c.queue_index] = true;
        stale = stale || why.empty();
        c.group->routed_pending_cpus += cores;
        d.add(RouteToCloud{job->id, c.group->group->name},
              prefer ? "job prefers the cloud"
                     : "expected local start in " + seconds_text(q) + ": waiting costs " +
                           (std::isinf(saved) ? std::string("more") : money(saved)) + why +
                           " more than the cloud's " + money(c.cost));
    }
    if (declined)
        d.notes.push_back(std::to_string(declined) +
                          " waiting job(s) expected to start locally before bursting pays off");
    return d;
}

} // namespace burst

#include "sim/reference/clairvoyant_policy.hpp"

#include "model/partition.hpp"
#include "policy/cost/billing_boundary.hpp"
#include "policy/site/node_instances.hpp"
#include "policy/site/site_view.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <tuple>

namespace burst {
namespace {

// E[(B − lead)+] for a boot B uniform in boot × (1 ± jitter).
double expected_late(Seconds boot, double jitter, Seconds lead)
{
    const double lo = boot * (1 - jitter), hi = boot * (1 + jitter);
    if (lead >= hi)
        return 0;
    if (lead <= lo)
        return boot - lead;
    return (hi - lead) * (hi - lead) / (2 * (hi - lo));
}

Seconds latest_boot(const SimConfig& config, const NodeGroup& g)
{
    return g.boot_time * (1 + boot_jitter_of(config, g));
}

// A chosen job running in a group: until `end`, on `cpus` cores.
struct GroupRun {
    Time end;
    std::uint32_t cpus;
};

// A chosen job to start in a group: no earlier than `ready`, for `run`
// seconds, after `boot` if it starts at once with no free up cores; its
// nodes are hired at the last decision at least `lead` before it starts.
struct GroupWaiting {
    Time ready;
    Seconds run;
    Seconds boot;
    Seconds lead;
    std::uint32_t cpus;
};

// The most cores a group's chosen jobs use at once from now on, counting
// those running (until their end) and those waiting (in the order the
// group's partition starts them) whose nodes are hired now: they start
// before the next decision (`cycle` from now) plus their lead.  Like Slurm
// in a node group's partition (and the simulator), a waiting job starts as
// soon as it is ready and the group's `capacity` cores have room for it,
// the first in order first;
// where the node limit binds, a job waits for running ones to end and
// starts on the nodes they leave, so it needs no node hired until shortly
// before then.  Counting every waiting job from now instead kept up nodes
// that idled until the group had room for their job, and as the
// simulator's SuspendTime powered them down they were hired again at the
// next decision (lublin-256 at 1x: 25k of the plan candidate's 28k boots).
// `free_up`, the free cores of up nodes, is less those the jobs starting
// now take.
double peak_cores(Time now, Seconds cycle, std::uint64_t capacity, const std::vector<GroupRun>& running,
                  const std::vector<GroupWaiting>& waiting, std::uint64_t& free_up)
{
    // At one time, the ends of jobs come before the starts, but a job of no
    // duration holds its cores through the scheduling pass that starts it
    // (the simulator ends it in a later event at that time), and so does a
    // running job past the end it was expected to have; another pass at
    // that time starts jobs on the cores they free.  A job's start and end
    // are counted in pass order: `rank` 2k + 1 for a start in pass k at a
    // time, 2k for an end freed before it.
    enum Order { kEnd, kEndAfterPass };
    std::vector<std::tuple<Time, int, double>> use; // counted jobs' starts (+cores) and ends (−cores)
    using End = std::tuple<Time, Order, std::uint32_t, bool>; // end, order, cores, counted
    std::priority_queue<End, std::vector<End>, std::greater<End>> ends;
    std::uint64_t used = 0;
    int pass = 0; // at the current time
    auto occupy = [&](Time from, Time until, std::uint32_t cpus, bool counted) {
        const Order order = until > from ? kEnd : kEndAfterPass;
        until = std::max(until, from);
        ends.emplace(until, order, cpus, counted);
        used += cpus;
        if (counted)
            use.emplace_back(from, 2 * pass + 1, double(cpus));
    };
    // Frees the cores of the jobs that end before a pass at t (`after`:
    // also those that end after it); how many.  What ends after the last
    // pass, later than every counted start, leaves the peak as it is.
    auto free_ended = [&](Time t, bool after) {
        std::uint64_t freed = 0;
        while (!ends.empty() && (std::get<0>(ends.top()) < t ||
                                 (std::get<0>(ends.top()) == t && (after || std::get<1>(ends.top()) == kEnd)))) {
            const auto [end, order, cpus, counted] = ends.top();
            ends.pop();
            used -= cpus;
            freed += cpus;
            if (counted) // before the pass at its end, or the next pass at t
                use.emplace_back(end, end < t ? 0 : 2 * (pass + after), -double(cpus));
        }
        return freed;
    };
    for (const auto& r : running)
        occupy(now, r.end, r.cpus, true);
    Seconds horizon = 0;
    std::uint32_t narrowest = std::numeric_limits<std::uint32_t>::max();
    for (const auto& w : waiting) {
        horizon = std::max(horizon, w.lead);
        narrowest = std::min(narrowest, w.cpus);
    }
    // The jobs not started yet, still in start order, and when they are
    // ready, in time order.
    std::vector<const GroupWaiting*> left;
    std::vector<Time> readies;
    for (const auto& w : waiting) {
        left.push_back(&w);
        readies.push_back(w.ready);
    }
    std::sort(readies.begin(), readies.end());
    auto next_ready = readies.begin();
    // Cores freed at now by the jobs held through the first pass: they are
    // on up nodes (those jobs run, or ran there), so a job that starts on
    // them in a later pass at now starts at once, as in the simulator.
    std::uint64_t freed_now = 0;
    for (Time t = now; !left.empty();) {
        free_ended(t, false);
        bool started = false;
        for (auto it = left.begin(); it != left.end() && used + narrowest <= capacity; ++it) {
            const GroupWaiting& w = **it;
            if (w.ready > t || used + w.cpus > capacity)
                continue;
            Seconds boot = 0;
            if (t == now && freed_now + free_up >= w.cpus) {
                const std::uint64_t from_freed = std::min<std::uint64_t>(freed_now, w.cpus);
                freed_now -= from_freed;
                free_up -= w.cpus - from_freed;
            } else if (t == now) {
                boot = w.boot;
            }
            occupy(t, t + boot + w.run, w.cpus, t < now + cycle + w.lead);
            *it = nullptr;
            started = true;
        }
        if (started)
            left.erase(std::remove(left.begin(), left.end(), nullptr), left.end());
        if (const std::uint64_t freed = free_ended(t, true)) {
            if (t == now)
                freed_now += freed;
            ++pass;
            continue; // another pass at t on the cores freed after this one
        }
        next_ready = std::upper_bound(next_ready, readies.end(), t);
        // (A time at which only started jobs were to be ready is a pass
        // that starts nothing.)
        Time next = next_ready == readies.end() ? std::numeric_limits<Time>::infinity() : *next_ready;
        if (!ends.empty())
            next = std::min(next, std::get<0>(ends.top()));
        if (!(next < now + cycle + horizon))
            break; // what starts later is hired for at a later decision
        t = next;
        pass = 0;
    }
    std::sort(use.begin(), use.end());
    double cores = 0, peak = 0;
    for (const auto& [time, order, delta] : use) {
        cores += delta;
        peak = std::max(peak, cores);
    }
    return peak;
}

BurstPlan plan_in_group(const SimConfig& config, const TraceJob& job, double lambda, Time first, bool shared,
                        std::size_t i, Time not_before = 0)
{
    BurstPlan best;
    best.cost = std::numeric_limits<double>::infinity();
    const NodeGroup& g = config.groups[i];
    const std::uint64_t nodes = (job.cpus + g.cpus - 1) / g.cpus;
    const std::uint64_t capacity = simulated_node_count(g);
    // Slurm would not start it there.
    const auto max_time = config.group_max_time.find(g.name);
    if (nodes > capacity ||
        (max_time != config.group_max_time.end() && !within_max_time(job.time_limit, max_time->second)))
        return best;
    const Seconds c = config.cycle;
    const Seconds run = runtime_in(g, job);
    const Time route_at = decision_after(std::max(job.release(), not_before), first, c);
    const bool narrow = shared && job.cpus < g.cpus;
    // A job with parents becomes eligible when a replay says: no lead,
    // unless it is to be routed no earlier than a given time.
    const bool known = job.parents.empty() || not_before > 0;
    const int leads = known ? int(std::ceil(latest_boot(config, g) / c)) : 0;
    for (int k = 0; k <= leads; ++k) {
        const Time hire_at = std::max(first, route_at - k * c);
        const Seconds lead = route_at - hire_at;
        const double late = expected_late(g.boot_time, boot_jitter_of(config, g), lead);
        const double idle = late + lead - g.boot_time; // E[(lead − B)+]
        const Time end = route_at + late + run;
        const double tail = narrow ? 0 : decision_after(end, first, c) - end;
        const double node_seconds = narrow ? (g.boot_time + idle + run) * double(job.cpus) / double(g.cpus)
                                           : double(nodes) * std::max(g.min_billed, g.boot_time + idle + run + tail);
        const Seconds wait = route_at - job.release() + late;
        const double cost = node_seconds * g.price_per_hour / 3600 + lambda * double(job.cpus) * wait / 3600;
        if (cost < best.cost) {
            best.group = int(i);
            best.cost = cost;
            best.route_at = route_at;
            best.hire_at = hire_at;
            best.wait = wait;
        }
    }
    return best;
}

} // namespace

Time decision_after(Time t, Time first, Seconds cycle)
{
    return t <= first ? first : first + std::ceil((t - first) / cycle) * cycle;
}

Time first_decision(const SimConfig& config, const std::vector<TraceJob>& trace)
{
    Time first = std::numeric_limits<Time>::infinity();
    for (const auto& t : trace)
        if (t.cpus <= config.local_cores)
            first = std::min(first, t.submit);
    return std::isinf(first) ? 0 : first;
}

BurstPlan burst_plan(const SimConfig& config, const TraceJob& job, double lambda, Time first, bool shared)
{
    BurstPlan best;
    best.cost = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < config.groups.size(); ++i) {
        const BurstPlan p = plan_in_group(config, job, lambda, first, shared, i);
        if (p.cost < best.cost)
            best = p;
    }
    return best;
}

ClairvoyantPolicy::ClairvoyantPolicy(const SimConfig& config, const std::vector<TraceJob>& trace, BurstSet route,
                                     double lambda, const std::unordered_map<JobId, Time>& not_before)
    : config_(config), route_(std::move(route))
{
    for (const auto& g : config_.groups)
        partitions_.push_back(group_partition(g));
    const Time first = first_decision(config, trace);
    for (const auto& t : trace) {
        auto it = route_.find(t.id);
        if (it == route_.end())
            continue;
        trace_.emplace(t.id, &t);
        auto late = not_before.find(t.id);
        const Time from = late == not_before.end() ? 0 : late->second;
        if (from > t.release())
            route_at_.emplace(t.id, decision_after(from, first, config.cycle));
        if ((!t.parents.empty() && from <= t.release()) || t.cpus > config.local_cores)
            continue;
        const std::size_t i = group_index(it->second);
        if (i == config.groups.size())
            continue;
        const BurstPlan p = plan_in_group(config, t, lambda, first, false, i, from);
        if (p.group >= 0)
            by_hire_.push_back(Planned{&t, i, p.route_at, p.hire_at});
    }
    std::stable_sort(by_hire_.begin(), by_hire_.end(),
                     [](const Planned& a, const Planned& b) { return a.hire_at < b.hire_at; });
}

std::size_t ClairvoyantPolicy::group_index(const std::string& name) const
{
    for (std::size_t i = 0; i < config_.groups.size(); ++i)
        if (config_.groups[i].name == name)
            return i;
    return config_.groups.size();
}

Decision ClairvoyantPolicy::decide(const ClusterState& state, const Clock& clock)
{
    Decision d;
    d.time = clock.now();
    for (const auto& job : state.snapshot.jobs) {
        if (!job.pending() || job.partitions.size() > 1)
            continue; // running, or already routed (local plus a group partition)
        auto it = route_.find(job.id);
        if (it == route_.end())
            continue;
        auto later = route_at_.find(job.id);
        if (later == route_at_.end() || later->second <= d.time)
            d.add(RouteToCloud{job.id, it->second}, "chosen in hindsight by the clairvoyant reference");
    }
    hire_and_release(state, d.time, d);
    return d;
}

// Per group, the nodes to keep on = the most cores the chosen jobs will use
// at once from now on (peak_cores): those running there, pending and due
// for hiring, scheduled on the group's node limit; hire up to it, release
// idle up nodes beyond it.
void ClairvoyantPolicy::hire_and_release(const ClusterState& state, Time now, Decision& d)
{
    while (next_hire_ < by_hire_.size() && by_hire_[next_hire_].hire_at <= now)
        due_.push_back(by_hire_[next_hire_++]);
    due_.erase(std::remove_if(due_.begin(), due_.end(), [&](const Planned& p) { return p.route_at <= now; }),
               due_.end()); // routed now: a pending job in the snapshot

    const std::size_t groups = config_.groups.size();
    // Nodes per group: powered on (not draining), idle and up, cores free on up nodes.
    std::vector<std::uint32_t> on(groups, 0);
    std::vector<std::vector<const Node*>> idle(groups);
    std::vector<std::uint64_t> free_up(groups, 0);
    for (const auto& node : state.snapshot.nodes) {
        if (!node.cloud() || node.partitions.empty() || node.has(kNodePoweredDown) || node.has(kNodeDrain))
            continue;
        const std::size_t g =
            std::size_t(std::find(partitions_.begin(), partitions_.end(), node.partitions[0]) - partitions_.begin());
        if (g == groups)
            continue;
        ++on[g];
        if (node.usable()) {
            free_up[g] += node.free_cpus();
            if (node.alloc_cpus == 0)
                idle[g].push_back(&node);
        }
    }
    NodeInstances instances(state.instances);

    std::vector<const Job*> pending;
    std::unordered_map<JobId, std::uint32_t> arrived; // due jobs pending unrouted: their priority
    std::vector<std::vector<GroupRun>> running(groups);
    for (const auto& job : state.snapshot.jobs) {
        auto r = route_.find(job.id);
        auto t = trace_.find(job.id);
        if (r == route_.end() || t == trace_.end())
            continue;
        const std::size_t g = group_index(r->second);
        if (g == groups)
            continue;
        const NodeGroup& group = config_.groups[g];
        if (job.pending() && !job.blocked()) {
            auto later = route_at_.find(job.id);
            if (later == route_at_.end() || later->second <= now)
                pending.push_back(&job);
            else // not routed yet: due_ counts it from then
                arrived.emplace(job.id, job.priority);
        } else if (job.running() && !job.partitions.empty() && job.partitions[0] == partitions_[g]) {
            // It runs from when its last node is up (start_time is its
            // allocation while they boot, reset once they are up); a node still booting is
            // up a boot after its launch at the latest.  Ending it a boot
            // early left a job due at its end without nodes.
            Time start = job.start_time;
            for (const auto& n : job.nodes) {
                if (const Instance* i = instances.find(n))
                    start = std::max(start, i->running_since > 0 ? i->running_since
                                                                 : i->requested_at + latest_boot(config_, group));
            }
            running[g].push_back(GroupRun{start + runtime_in(group, *t->second), job.cpus});
        }
    }
    // Waiting jobs in the order the group's partition starts them, whenever
    // each is routed: by priority, then submission (the simulator's order,
    // Slurm's).  A job not arrived yet comes after those that have: under
    // FCFS its priority is lower, being submitted later.  Planned in
    // another order, the plan started other jobs than the simulator where
    // the node limit binds, and hired for them.
    struct Ordered {
        std::uint64_t rank; // arrived: 2^32 − 1 − priority; not arrived: 2^32
        const TraceJob* job; // in the trace: address order is submission order among equal submits
        std::size_t group;
        GroupWaiting waiting;
    };
    std::vector<Ordered> order;
    constexpr std::uint64_t kNotArrived = std::uint64_t(std::numeric_limits<std::uint32_t>::max()) + 1;
    auto arrived_rank = [&](std::uint32_t priority) { return kNotArrived - 1 - priority; };
    for (const Job* job : pending) {
        const std::size_t g = group_index(route_.at(job->id));
        const NodeGroup& group = config_.groups[g];
        const TraceJob* t = trace_.at(job->id);
        order.push_back(Ordered{arrived_rank(job->priority), t, g,
                                GroupWaiting{now, runtime_in(group, *t), latest_boot(config_, group),
                                             latest_boot(config_, group), job->cpus}});
    }
    for (const auto& p : due_) { // on nodes hired ahead: no boot
        auto a = arrived.find(p.job->id);
        order.push_back(Ordered{a == arrived.end() ? kNotArrived : arrived_rank(a->second), p.job, p.group,
                                GroupWaiting{p.route_at, runtime_in(config_.groups[p.group], *p.job), 0,
                                             p.route_at - p.hire_at, p.job->cpus}});
    }
    std::sort(order.begin(), order.end(), [](const Ordered& a, const Ordered& b) {
        if (a.rank != b.rank)
            return a.rank < b.rank;
        return a.job->submit != b.job->submit ? a.job->submit < b.job->submit : std::less<>()(a.job, b.job);
    });
    std::vector<std::vector<GroupWaiting>> waiting(groups);
    for (const auto& o : order)
        waiting[o.group].push_back(o.waiting);

    for (std::size_t g = 0; g < groups; ++g) {
        const NodeGroup& group = config_.groups[g];
        const std::uint32_t capacity = simulated_node_count(group);
        const double peak = peak_cores(now, config_.cycle, std::uint64_t(capacity) * group.cpus, running[g], waiting[g], free_up[g]);
        const auto needed = std::min(capacity, std::uint32_t(std::ceil(peak / group.cpus - 1e-9)));
        if (needed > on[g]) {
            std::uint32_t hire = needed - on[g];
            auto limit = state.hire_limits.find(group.name);
            if (limit != state.hire_limits.end())
                hire = std::min(hire, limit->second);
            if (hire > 0)
                d.add(HireNodes{group.name, hire}, "ready when the jobs chosen in hindsight arrive");
            continue;
        }
        // Idle nodes beyond the need power down unless keeping one to the
        // next decision costs nothing more (minimum or hourly billing); the
        // pending jobs take up nodes first, so only the up cores they leave
        // free are idle.
        const std::uint64_t releasable =
            std::min<std::uint64_t>(on[g] - needed, free_up[g] / std::max<std::uint32_t>(group.cpus, 1));
        ReleaseNodes release;
        release.drain_first = false;
        for (const Node* node : idle[g]) {
            if (release.nodes.size() >= releasable)
                break;
            const Seconds up = instances.uptime(node->name, now);
            if (billed_seconds(group, up + config_.cycle) > billed_seconds(group, up))
                release.nodes.push_back(node->name);
        }
        if (!release.nodes.empty())
            d.add(std::move(release), "no job chosen in hindsight needs it before a new node could boot");
    }
}

} // namespace burst

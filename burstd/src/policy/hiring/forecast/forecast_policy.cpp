#include "policy/hiring/forecast/forecast_policy.hpp"

#include "policy/runtime/local_start_forecast.hpp"
#include "policy/reason_text.hpp"
#include "policy/site/site_view.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

namespace burst {
namespace {

std::string seconds_text(Seconds s)
{
    std::ostringstream out;
    out.precision(0);
    out << std::fixed << s << " s";
    return out.str();
}

struct Quote {
    Seconds boot;
    double cost;
    double slots = 0; // of `cost`: what its node slots deny others
};

// Cores of a group a job routed in this decision could take without new
// nodes: free on up nodes, and free on booting nodes (including the spare
// cores of nodes that jobs routed earlier in this decision resume).
struct Room {
    std::uint64_t warm = 0;
    std::uint64_t booting = 0;

    static Room of(const GroupView& g)
    {
        // Jobs routed in earlier cycles take free up cores first.
        const std::uint64_t promised = g.routed_pending_cpus;
        const std::uint64_t over = promised > g.free_up_cpus ? promised - g.free_up_cpus : 0;
        return Room{g.free_up_cpus > promised ? g.free_up_cpus - promised : 0,
                    g.free_booting_cpus > over ? g.free_booting_cpus - over : 0};
    }
    // A job of `cores` takes its cores: warm ones first, then booting ones,
    // then whole new nodes, whose spare cores are booting from now on.
    void take(std::uint64_t cores, std::uint32_t node_cpus)
    {
        const std::uint64_t w = std::min(warm, cores);
        warm -= w;
        cores -= w;
        const std::uint64_t b = std::min(booting, cores);
        booting -= b;
        cores -= b;
        if (cores > 0)
            booting += (cores + node_cpus - 1) / node_cpus * node_cpus - cores;
    }
};

// What routing `cores` cores for `runtime` to a group adds to the bill, and
// how long the job waits for its nodes.  Cores free on nodes that are up
// (or booting) and not promised to routed jobs are paid for anyway while
// the node is on: the job costs its share of the node for its runtime, and
// waits no boot (or the boot, if the node is still booting).  Otherwise new
// whole nodes are resumed: boot + runtime, at least the minimum billed;
// with `shared`, a job narrower than a node pays only its share of the
// node's boot + runtime (other narrow jobs routed with it fill the rest).
Quote quote(const GroupView& g, const Room& room, std::uint64_t cores, Seconds runtime, bool shared = false)
{
    const NodeGroup& group = *g.group;
    const double node_second = group.price_per_hour / 3600;
    const double share = double(cores) / double(group.cpus);
    if (room.warm >= cores)
        return {0, share * node_second * runtime / group.speed};
    if (room.warm + room.booting >= cores)
        return {group.boot_time, share * node_second * runtime / group.speed};
    if (shared && cores < group.cpus)
        return {group.boot_time, share * node_second * (group.boot_time + runtime / group.speed)};
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
      displacement_([&params] {
          const std::string d = params.get_choice("displacement", "on", {"on", "bounded", "off"});
          return d == "on" ? Displacement::On : d == "bounded" ? Displacement::Bounded : Displacement::Off;
      }()),
      model_(params.get_double("max_error", -1, 0, 1)),
      expander_(make_expander(params.get_choice("expander", "least-cost", expander_names()))),
      retention_(params.get_choice("retention", "learned", {"learned", "suspend"}) == "learned"
                     ? std::make_optional<IdleRetention>(lambda_)
                     : std::nullopt),
      slots_([&params] {
          const std::string s = params.get_choice("slots", "blocked", {"blocked", "arrivals", "free"});
          return s == "blocked" ? Slots::Blocked : s == "arrivals" ? Slots::Arrivals : Slots::Free;
      }())
{
}

void ForecastPolicy::release_idle(Decision& d, const SiteView& view, const std::vector<Instance>& instances)
{
    if (!retention_)
        return;
    NodeInstances by_node(instances);
    for (const auto& g : view.groups) {
        // Jobs routed here (in this decision too) take free up cores first.
        const std::uint64_t spare_cpus = g.free_up_cpus > g.routed_pending_cpus ? g.free_up_cpus - g.routed_pending_cpus : 0;
        auto nodes = retention_->release(g, by_node, d.time, std::uint32_t(spare_cpus / g.group->cpus));
        if (!nodes.empty())
            d.add(ReleaseNodes{std::move(nodes), true},
                  "idle nodes of " + g.group->name +
                      " are not expected to be needed again before keeping them costs more than a fresh node");
    }
}

Decision ForecastPolicy::decide(const ClusterState& state, const Clock& clock)
{
    Decision d;
    const Time now = d.time = clock.now();
    model_.begin_cycle(now);
    if (state.groups.empty())
        return d;
    SiteView& view = site_.build(state);
    for (auto& note : view.needs_notes())
        d.notes.push_back(std::move(note));
    if (retention_)
        retention_->observe(state, view, now);

    std::vector<ForecastRunning> running;
    running.reserve(view.running.size());
    std::vector<RuntimeRatioModel::Noted> noted;
    noted.reserve(view.running.size());
    for (const Job* job : view.running) // all of them before any prediction: they are evidence
        noted.push_back(model_.note(*job));
    for (std::size_t r = 0; r < view.running.size(); ++r) {
        if (view.running_group[r] >= 0)
            continue;
        const Job* job = view.running[r];
        const Seconds elapsed = now - job->start_time;
        const Seconds expected = model_.expected(noted[r]);
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
        std::size_t group; // index into view.groups
    };
    std::vector<ForecastPending> queue;
    // Per queued job, the local wait past which it bursts on its own (not
    // foreseen for jobs that never burst).
    std::vector<Seconds> break_even;
    std::vector<Candidate> candidates;
    Seconds horizon = 0;
    const std::size_t n = std::min<std::size_t>(depth_, view.pending.size());
    queue.reserve(n);
    std::vector<Room> rooms;
    rooms.reserve(view.groups.size());
    for (const auto& g : view.groups)
        rooms.push_back(Room::of(g));
    std::vector<ExpansionOption> options;
    options.reserve(view.groups.size());
    if (slots_ == Slots::Blocked)
        scarcity_.resize(view.groups.size());
    if (slots_ == Slots::Arrivals)
        while (arrivals_.size() < view.groups.size())
            arrivals_.emplace_back(view.groups[arrivals_.size()].group->cpus);
    // A burst's quote plus what holding its node slots for its boot and run
    // denies jobs that would burst but find the group full, at λ: the
    // waiting as many cores of room relieved over as long back
    // (slots=blocked, slot_scarcity.hpp), or the arrivals of as long back
    // that would no longer fit, waiting for it half that time each
    // (slots=arrivals, burst_arrivals.hpp).  On new nodes it holds them whole.
    auto priced = [&](std::size_t g, const Room& room, std::uint64_t cores, Seconds expected, bool shared = false) {
        Quote q = quote(view.groups[g], room, cores, expected, shared);
        if (slots_ == Slots::Free || lambda_ <= 0)
            return q;
        const NodeGroup& group = *view.groups[g].group;
        const bool whole = room.warm + room.booting < cores && !(shared && cores < group.cpus);
        const std::uint64_t held = whole ? (cores + group.cpus - 1) / group.cpus * group.cpus : cores;
        const Seconds hold = q.boot + expected / group.speed;
        if (slots_ == Slots::Blocked) {
            q.slots = lambda_ * scarcity_[g].denied(now, hold, double(held)) / 3600;
        } else {
            const std::uint64_t free = view.groups[g].free_capacity();
            const double turned_away = arrivals_[g].within(now, hold, free > held ? free - held : 0, held);
            q.slots = lambda_ * turned_away * hold / 2 / 3600;
        }
        q.cost += q.slots;
        return q;
    };
    // A queued job, its group, and the wait past which bursting there pays.
    struct Burstable {
        std::size_t queue_index;
        std::size_t group;
        Seconds break_even;
    };
    std::vector<Burstable> blocked; // no group has room for them
    std::vector<Burstable> fresh;   // new since the last decision (slots=arrivals)
    for (std::size_t i = 0; i < n; ++i) {
        const Job* job = view.pending[i];
        const RuntimeRatioModel::Noted noted_job = model_.note(*job);
        if (view.pending_group[i] >= 0)
            continue;
        const Seconds expected = model_.expected(noted_job);
        const std::uint64_t cores = job->total_cpus();
        // displacement=bounded looks back as far as a held job would run:
        // keep that much, and as far as its limit (later predictions of
        // its kind may grow to it).
        own_bursts_.keep(std::max<Seconds>(expected, job->time_limit));
        for (std::size_t g = 0; g < view.groups.size(); ++g) { // a burst's boot and run, at most its limit
            const Seconds hold = view.groups[g].group->boot_time +
                                 std::max<Seconds>(expected, job->time_limit) / view.groups[g].group->speed;
            if (slots_ == Slots::Blocked)
                scarcity_[g].keep(hold);
            if (slots_ == Slots::Arrivals)
                arrivals_[g].keep(hold);
        }
        queue.push_back(ForecastPending{cores, expected, job->time_limit > 0 ? job->time_limit : expected});
        break_even.push_back(kNotForeseen);
        if (view.pending_burst[i] == BurstOption::Never)
            continue;
        options.clear();
        for (std::size_t g = 0; g < view.groups.size(); ++g) {
            if (view.groups[g].free_capacity() < cores || !view.serves(i, view.groups[g]))
                continue;
            const auto [boot, cost, slots] = priced(g, rooms[g], cores, expected);
            options.push_back(ExpansionOption{&view.groups[g], cost, boot});
        }
        const ExpansionOption* choice = expander_->choose(options, cores);
        if (!choice) {
            if (slots_ != Slots::Free && lambda_ > 0 && job->burst != BurstOption::Prefer)
                for (std::size_t g = 0; g < view.groups.size(); ++g) {
                    const GroupView& gv = view.groups[g];
                    if (gv.free_capacity() < cores && cores <= std::uint64_t(gv.group->capacity()) * gv.group->cpus &&
                        view.serves(i, gv)) {
                        const auto [boot, cost, slots] = priced(g, Room{}, cores, expected);
                        blocked.push_back(
                            Burstable{queue.size() - 1, g, boot + cost * 3600 / (lambda_ * double(cores))});
                        if (slots_ == Slots::Arrivals && view.pending_since[i] > last_decision_)
                            fresh.push_back(blocked.back());
                        break;
                    }
                }
            continue;
        }
        candidates.push_back(Candidate{queue.size() - 1, i, std::size_t(choice->group - view.groups.data())});
        if (slots_ == Slots::Arrivals && view.pending_since[i] > last_decision_ && lambda_ > 0 &&
            job->burst != BurstOption::Prefer)
            fresh.push_back(Burstable{queue.size() - 1, candidates.back().group,
                                      choice->ready_in + choice->cost * 3600 / (lambda_ * double(cores))});
        if (job->burst == BurstOption::Prefer) {
            break_even.back() = 0;
        } else {
            break_even.back() =
                lambda_ > 0 ? choice->ready_in + choice->cost * 3600 / (lambda_ * double(cores)) : kNotForeseen;
            horizon = std::max(horizon, break_even.back());
        }
    }
    own_bursts_.forget(now);
    for (SlotScarcity& s : scarcity_)
        s.forget(now);
    for (BurstArrivals& a : arrivals_)
        a.forget(now);
    last_decision_ = now;
    if (candidates.empty() && blocked.empty()) {
        for (std::size_t g = 0; g < scarcity_.size(); ++g)
            scarcity_[g].record(now, 0);
        release_idle(d, view, state.instances);
        return d;
    }
    // Starts of the queue without the jobs routed so far (and without
    // `also`, when given); routed jobs' entries are left at 0.
    std::vector<bool> routed(queue.size(), false);
    std::uint32_t plays = 0;
    std::optional<LocalStartForecast> local; // prepared at the first play
    auto play = [&](std::size_t also, Seconds reach) {
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
        if (!local)
            local.emplace(view.local_free_cpus, running);
        const auto s = local->starts(rest, backfill_window_, reach);
        for (std::size_t k = 0; k < index.size(); ++k)
            out[index[k]] = s[k];
        return out;
    };
    // Waiting saved by the others when `start` becomes `alt`, each cut at
    // its own break-even: a job foreseen to wait past it bursts (in this
    // decision or a later one), so waiting beyond it is not what holding
    // costs; jobs that never burst are cut at the horizon (beyond it the
    // forecast knows no more).
    auto others_saved = [&](const std::vector<Seconds>& start, const std::vector<Seconds>& alt, std::size_t self) {
        double sum = 0;
        for (std::size_t i = 0; i < queue.size(); ++i)
            if (i != self && !routed[i]) {
                const Seconds cut = std::min(break_even[i], horizon);
                sum += double(queue[i].cores) * std::max<Seconds>(0, std::min(start[i], cut) - std::min(alt[i], cut));
            }
        return lambda_ * sum / 3600;
    };
    // The first play reaches as far as the blocked jobs' break-even waits,
    // to tell which of them would burst; the decision reads it cut at the
    // horizon like every other play (a play is the same up to where it stops).
    Seconds reach = horizon;
    for (const Burstable& b : blocked)
        reach = std::max(reach, b.break_even);
    std::vector<Seconds> start = play(queue.size(), reach);
    if (slots_ == Slots::Blocked) {
        std::vector<double> waiting(view.groups.size(), 0);
        for (const Burstable& b : blocked)
            if (start[b.queue_index] > b.break_even)
                waiting[b.group] += double(queue[b.queue_index].cores);
        for (std::size_t g = 0; g < scarcity_.size(); ++g)
            scarcity_[g].record(now, waiting[g]);
    }
    for (const Burstable& f : fresh)
        if (start[f.queue_index] > f.break_even)
            arrivals_[f.group].add(now, queue[f.queue_index].cores);
    if (candidates.empty()) {
        release_idle(d, view, state.instances);
        return d;
    }
    for (Seconds& s : start)
        if (s > horizon)
            s = kNotForeseen;
    bool stale = false;

    // Narrow jobs that would pay for their share of a new node, counted
    // from each candidate on per group: when they fill at least a node,
    // they are quoted that share (they will share the nodes they resume).
    std::vector<std::uint64_t> narrow_behind(candidates.size(), 0);
    {
        std::vector<std::uint64_t> sum(view.groups.size(), 0);
        for (std::size_t k = candidates.size(); k-- > 0;) {
            const Candidate& c = candidates[k];
            const ForecastPending& p = queue[c.queue_index];
            const auto [boot, cost, slots] = priced(c.group, Room{}, p.cores, p.expected, true);
            if (lambda_ > 0 && p.cores < view.groups[c.group].group->cpus &&
                lambda_ * double(p.cores) * (start[c.queue_index] - boot) / 3600 > cost)
                sum[c.group] += p.cores;
            narrow_behind[k] = sum[c.group];
        }
    }

    std::size_t declined = 0;
    // displacement=bounded: the work this decision routes for its own wait
    // joins the look-back after the decision, so that every candidate of
    // one decision is charged against the same past, whatever its place.
    double routed_for_own_wait = 0;
    for (std::size_t k = 0; k < candidates.size(); ++k) {
        const Candidate& c = candidates[k];
        GroupView& group = view.groups[c.group];
        Room& room = rooms[c.group];
        const Job* job = view.pending[c.view_index];
        const bool prefer = job->burst == BurstOption::Prefer;
        const std::uint64_t cores = queue[c.queue_index].cores;
        if (group.free_capacity() < cores) {
            // Taken by jobs routed earlier in this decision.
            d.verdicts.push_back(JobVerdict{job->id, false, group.group->name, start[c.queue_index], NAN, NAN,
                                            "no room left in the group this cycle"});
            continue;
        }
        // Jobs routed before this one free cores for it: look again.
        if (stale && plays < reforecasts_ + 1 && start[c.queue_index] > 0 && !prefer) {
            start = play(queue.size(), horizon);
            stale = false;
        }
        const Seconds q = start[c.queue_index];
        if (!prefer && q == 0) {
            d.verdicts.push_back(JobVerdict{job->id, false, "", 0, NAN, NAN, "expected to start locally now"});
            continue;
        }
        const Seconds expected = queue[c.queue_index].expected;
        const bool shared = narrow_behind[k] >= group.group->cpus;
        const bool room_was_cold = room.warm + room.booting < cores;
        const auto [boot, cost, slots] = priced(c.group, room, cores, expected, shared);
        double saved = lambda_ * double(cores) * (q - boot) / 3600;
        std::string why;
        bool replayed = false; // the queue was played without this job
        if (!prefer && !(saved > cost)) {
            // Kept local, it takes cores that jobs behind it could use.
            // Where those jobs would burst (the forecast has them waiting
            // past their break-even), its run pushes their work into the
            // cloud: the cloud's price for its cores.  Where they would
            // wait, what it costs them is what the play without it measures
            // (benefit=queue), not the cloud's price.
            double displaced = 0;
            if (displacement_ != Displacement::Off) {
                Seconds until = 0;
                double pushed = 0; // core-seconds of those that would start after it
                for (std::size_t i = 0; i < queue.size(); ++i)
                    if (i != c.queue_index && !routed[i] && queue[i].cores <= cores && start[i] > break_even[i]) {
                        until = std::max(until, start[i]);
                        if (start[i] > q)
                            pushed += double(queue[i].cores) * queue[i].expected;
                    }
                const Seconds held = std::max<Seconds>(0, std::min(q + expected, until) - q);
                double work = double(cores) * held;
                if (displacement_ == Displacement::Bounded && held > 0)
                    work = std::min(work, pushed + own_bursts_.within(now, held));
                displaced = work * group.group->price_per_cpu_second() / group.group->speed;
            }
            // Holding it is judged by its forecast wait, but held jobs have
            // cost `ratio` times theirs (hold_outcomes.hpp).  Only an
            // overrun counts: learned from held jobs alone, the ratio says
            // nothing about jobs that pay for themselves.
            const double ratio = holds_.cost_ratio();
            const double overrun = std::max(0.0, ratio - 1) * lambda_ * double(cores) * q / 3600;
            if (saved + displaced + overrun > cost) {
                saved += displaced + overrun;
                std::ostringstream times;
                times.precision(2);
                times << std::fixed << ratio;
                why = " (" + money(displaced) + " of it for the cloud work its local run would displace, " +
                      money(overrun) + " because held jobs have cost " + times.str() + " times their forecast wait)";
            }
        }
        if (!prefer && !(saved > cost) && queue_benefit_ && lambda_ > 0 && plays < reforecasts_ + 1) {
            // Bursting it may also let the jobs behind it start sooner
            // (a blocked head's reservation holds cores back).
            std::vector<Seconds> alt = play(c.queue_index, horizon);
            const double behind = others_saved(start, alt, c.queue_index);
            if (saved + behind > cost) {
                saved += behind;
                start = std::move(alt);
                stale = false;
                replayed = true;
                why = " (" + money(behind) + " of it by the jobs behind)";
            }
        }
        if (!prefer && !(saved > cost)) {
            holds_.held(job->id, now, lambda_ * double(cores) / 3600, lambda_ * double(cores) * q / 3600);
            ++declined;
            d.verdicts.push_back(JobVerdict{job->id, false, group.group->name, q, cost, saved,
                                            "kept local: waiting is expected to cost less than the cloud"});
            continue;
        }
        holds_.routed(job->id, now, cost + lambda_ * double(cores) * boot / 3600);
        if (displacement_ == Displacement::Bounded && !prefer && why.empty())
            routed_for_own_wait += double(cores) * expected;
        routed[c.queue_index] = true;
        stale = stale || !replayed;
        group.routed_pending_cpus += cores;
        room.take(cores, group.group->cpus);
        d.verdicts.push_back(JobVerdict{job->id, true, group.group->name, q, cost, saved,
                                        prefer ? "bursts: the job prefers the cloud"
                                               : "bursts: waiting is expected to cost more than the cloud"});
        d.add(RouteToCloud{job->id, group.group->name},
              prefer ? "job prefers the cloud"
                     : (std::isinf(q) ? std::string("no local start foreseen")
                                      : "expected local start in " + seconds_text(q)) +
                           ": waiting costs " +
                           (std::isinf(saved) ? std::string("") : money(saved) + why + " ") +
                           "more than the cloud's " + money(cost) +
                           (shared && room_was_cold ? " (its share of a node it fills with others)" : "") +
                           (slots > 0 ? " (" + money(slots) + " of it for the node slots it holds)" : ""));
    }
    if (routed_for_own_wait > 0)
        own_bursts_.add(now, routed_for_own_wait);
    if (declined)
        d.notes.push_back(std::to_string(declined) +
                          " waiting job(s) expected to start locally before bursting pays off");
    release_idle(d, view, state.instances);
    return d;
}

} // namespace burst

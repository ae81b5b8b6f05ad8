#include "sim/reference/clairvoyant_reference.hpp"

#include "sim/reference/clairvoyant_policy.hpp"
#include "sim/reference/core_profile.hpp"

#include <algorithm>

namespace burst {
namespace {

// The simulator's order: by submit time, ties in trace order; wider jobs than
// the site are not replayed.
std::vector<const TraceJob*> replay_order(const SimConfig& config, const std::vector<TraceJob>& trace)
{
    std::vector<const TraceJob*> order;
    order.reserve(trace.size());
    for (const auto& t : trace)
        if (t.cpus <= config.local_cores)
            order.push_back(&t);
    std::stable_sort(order.begin(), order.end(),
                     [](const TraceJob* a, const TraceJob* b) { return a->submit < b->submit; });
    return order;
}

void choose(const SimConfig& config, const TraceJob& t, double lambda, Time first, bool shared, Seconds wait,
            BurstSet& set)
{
    const BurstPlan plan = burst_plan(config, t, lambda, first, shared);
    if (plan.group >= 0 && wait * t.cpus * lambda / 3600 > plan.cost)
        set.emplace(t.id, config.groups[std::size_t(plan.group)].name);
}

} // namespace

BurstSet no_burst_rule_set(const SimConfig& config, const std::vector<TraceJob>& trace, const SimResult& no_burst,
                           double lambda)
{
    std::unordered_map<JobId, Seconds> wait;
    wait.reserve(no_burst.jobs.size());
    for (const auto& j : no_burst.jobs)
        wait.emplace(j.id, j.start - j.eligible);
    const Time first = first_decision(config, trace);
    BurstSet set;
    for (const auto& t : trace) {
        auto it = wait.find(t.id);
        if (it != wait.end() && it->second > 0)
            choose(config, t, lambda, first, false, it->second, set);
    }
    return set;
}

BurstSet plan_burst_set(const SimConfig& config, const std::vector<TraceJob>& trace, double lambda, bool shared)
{
    const Time first = first_decision(config, trace);
    BurstSet set;
    CoreProfile profile(config.local_cores);
    for (const TraceJob* t : replay_order(config, trace)) {
        profile.forget_before(t->submit);
        const Seconds runtime = t->true_runtime();
        const Time start = profile.earliest_fit(t->release(), runtime, t->cpus);
        const std::size_t before = set.size();
        choose(config, *t, lambda, first, shared, start - t->release(), set);
        if (set.size() == before)
            profile.reserve(start, runtime, t->cpus);
    }
    return set;
}

BurstSet refine_burst_set(const SimConfig& config, const std::vector<TraceJob>& trace, const SimResult& replay,
                          double lambda, bool shared)
{
    // Local occupancy of the replay, then each job's local wait.
    CoreProfile profile(config.local_cores);
    std::unordered_map<JobId, const JobOutcome*> outcome;
    outcome.reserve(replay.jobs.size());
    std::vector<CoreProfile::Span> local;
    local.reserve(replay.jobs.size());
    for (const auto& j : replay.jobs) {
        outcome.emplace(j.id, &j);
        if (j.group < 0)
            local.push_back(CoreProfile::Span{j.start, j.end - j.start, j.cpus});
    }
    profile.reserve_all(local);
    const Time first = first_decision(config, trace);
    BurstSet set;
    for (const TraceJob* t : replay_order(config, trace)) {
        auto it = outcome.find(t->id);
        if (it == outcome.end())
            continue;
        const JobOutcome& o = *it->second;
        const Seconds wait = o.group < 0 ? o.start - o.eligible
                                         : profile.earliest_fit(t->release(), t->true_runtime(), t->cpus) - t->release();
        choose(config, *t, lambda, first, shared, wait, set);
    }
    return set;
}

BurstSet burst_set_of(const SimConfig& config, const SimResult& replay)
{
    BurstSet set;
    for (const auto& j : replay.jobs)
        if (j.group >= 0)
            set.emplace(j.id, config.groups[std::size_t(j.group)].name);
    return set;
}

ClairvoyantRun clairvoyant_reference(const SimConfig& config, const std::vector<TraceJob>& trace,
                                     const SimResult& no_burst, double lambda, unsigned iterations,
                                     const std::vector<Baseline>& baselines, double tau)
{
    ClairvoyantRun best;
    bool have = false;
    auto consider = [&](const std::string& name, const SimResult& result) {
        const SimMetrics m = compute_metrics(result, lambda, tau);
        if (!have || m.objective < best.metrics.objective) {
            best.candidate = name;
            best.result = result;
            best.metrics = m;
            have = true;
        }
    };
    auto replay = [&](const std::string& name, const BurstSet& set,
                      const std::unordered_map<JobId, Time>& not_before = {}) {
        ClairvoyantPolicy policy(config, trace, set, lambda, not_before);
        SimResult result = simulate(config, trace, policy);
        ++best.replays;
        consider(name, result);
        return result;
    };
    consider("never", no_burst);
    replay("no-burst-rule", no_burst_rule_set(config, trace, no_burst, lambda));
    for (bool shared : {false, true}) {
        const std::string prefix = shared ? "shared-" : "";
        BurstSet current = plan_burst_set(config, trace, lambda, shared);
        SimResult last = replay(prefix + "plan", current);
        for (unsigned k = 1; k <= iterations; ++k) {
            BurstSet next = refine_burst_set(config, trace, last, lambda, shared);
            if (next == current)
                break; // a fixed point
            current = std::move(next);
            last = replay(prefix + "fixed-point-" + std::to_string(k), current);
        }
    }
    for (const auto& b : baselines) {
        const BurstSet set = burst_set_of(config, b.run);
        replay(b.name, set);
        // Routed no earlier than the baseline could have: its start less a boot.
        std::unordered_map<JobId, Time> not_before;
        for (const auto& j : b.run.jobs)
            if (j.group >= 0)
                not_before.emplace(j.id, j.start - config.groups[std::size_t(j.group)].boot_time);
        replay(b.name + "-timed", set, not_before);
        consider(b.name + "-as-run", b.run);
    }
    return best;
}

} // namespace burst

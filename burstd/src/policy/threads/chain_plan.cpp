#include "policy/threads/chain_plan.hpp"

#include <algorithm>
#include <cmath>

namespace burst {

Seconds chain_stage_time(const ThreadQuestion& q, std::size_t s, std::uint32_t threads)
{
    if (s == 0)
        return single_threaded_time(q.fit, q.size) * (q.fit.c / double(threads) + 1 - q.fit.c);
    return stage_time(q.rest[s - 1], threads);
}

const std::vector<std::uint32_t>& chain_stage_counts(const ThreadQuestion& q, std::size_t s,
                                                     std::vector<std::uint32_t>& fixed)
{
    if (s == 0 || q.rest[s - 1].plannable())
        return q.counts;
    fixed.assign(1, q.rest[s - 1].threads);
    return fixed;
}

namespace {

double stage_tasks(const ThreadQuestion& q, std::size_t s)
{
    return double(s == 0 ? q.tasks : q.rest[s - 1].tasks);
}

} // namespace

double plan_cost(const ThreadQuestion& q, const ChainPlan& plan, const StagePricing& pricing, Seconds elapsed)
{
    double cores = 0;
    Seconds time = 0;
    for (std::size_t s = 0; s < plan.size(); ++s) {
        const Seconds t = chain_stage_time(q, s, plan[s]) / pricing.speed;
        cores += t * stage_tasks(q, s) * plan[s] * pricing.price(s, plan[s]);
        time += t;
    }
    return cores + chain_penalty(q, elapsed, time);
}

Seconds plan_rest_time(const ThreadQuestion& q, const ChainPlan& plan)
{
    Seconds rest = 0;
    for (std::size_t s = 1; s < plan.size(); ++s)
        rest += chain_stage_time(q, s, plan[s]);
    return rest;
}

ChainPlan ideal_plan(const ThreadQuestion& q)
{
    const StagePricing local{[&](std::size_t, std::uint32_t) { return q.local_price; }, 1};
    std::vector<std::uint32_t> fixed;
    ChainPlan plan(q.rest.size() + 1, 1);
    for (std::size_t s = 0; s < plan.size(); ++s)
        plan[s] = chain_stage_counts(q, s, fixed).front();
    double best = plan_cost(q, plan, local, q.elapsed);
    // Each sweep lowers the cost or ends the descent; the counts are few.
    for (int sweep = 0; sweep < 8; ++sweep) {
        bool moved = false;
        for (std::size_t s = 0; s < plan.size(); ++s) {
            const std::uint32_t kept = plan[s];
            for (std::uint32_t t : chain_stage_counts(q, s, fixed)) {
                if (t == kept)
                    continue;
                const std::uint32_t before = plan[s];
                plan[s] = t;
                const double c = plan_cost(q, plan, local, q.elapsed);
                if (c < best - std::abs(best) * 1e-9) {
                    best = c;
                    moved = true;
                } else {
                    plan[s] = before;
                }
            }
        }
        if (!moved)
            break;
    }
    return plan;
}

std::vector<ChainPlan> plan_shortlist(const ThreadQuestion& q, std::size_t size)
{
    // The stages planned: as many as keep the enumeration within kMaxPlans.
    std::vector<std::vector<std::uint32_t>> choices;
    std::vector<std::uint32_t> fixed;
    std::size_t plans = 1;
    for (std::size_t s = 0; s <= q.rest.size(); ++s) {
        std::vector<std::uint32_t> counts = chain_stage_counts(q, s, fixed);
        if (plans * counts.size() > kMaxPlans)
            counts = {counts.front()};
        plans *= counts.size();
        choices.push_back(std::move(counts));
    }
    struct Scored {
        double core_time;
        double cost;
        std::size_t index;
    };
    const StagePricing local{[&](std::size_t, std::uint32_t) { return q.local_price; }, 1};
    std::vector<Scored> scored;
    scored.reserve(plans);
    ChainPlan plan(choices.size());
    for (std::size_t i = 0; i < plans; ++i) {
        double core_time = 0;
        for (std::size_t s = 0, rest = i; s < choices.size(); ++s) {
            plan[s] = choices[s][rest % choices[s].size()];
            rest /= choices[s].size();
            core_time += chain_stage_time(q, s, plan[s]) * stage_tasks(q, s) * plan[s];
        }
        scored.push_back(Scored{core_time, plan_cost(q, plan, local, 0), i});
    }
    std::sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
        return a.core_time < b.core_time || (a.core_time == b.core_time && a.cost < b.cost);
    });
    // Monotone: a plan stays only if it costs less than every plan that invests less.
    std::vector<std::size_t> frontier;
    double cheapest = 0;
    for (const Scored& p : scored)
        if (frontier.empty() || p.cost < cheapest - std::abs(cheapest) * 1e-12) {
            cheapest = p.cost;
            frontier.push_back(p.index);
        }
    std::vector<ChainPlan> shortlist;
    const std::size_t n = frontier.size(), picks = std::min(size, n);
    for (std::size_t k = 0; k < picks; ++k) {
        const std::size_t pick = picks == 1 ? n - 1 : k * (n - 1) / (picks - 1);
        for (std::size_t s = 0, rest = frontier[pick]; s < choices.size(); ++s) {
            plan[s] = choices[s][rest % choices[s].size()];
            rest /= choices[s].size();
        }
        if (shortlist.empty() || shortlist.back() != plan)
            shortlist.push_back(plan);
    }
    return shortlist;
}

} // namespace burst

#include "policy/threads/long_term_adaptive_allocator.hpp"

#include <cmath>

namespace burst {

LongTermAdaptiveAllocator::LongTermAdaptiveAllocator(PolicyParams& params)
    : sharing_(params.get_double("sharing", 1, 1, 100))
{
}

const LongTermAdaptiveAllocator::Ideal& LongTermAdaptiveAllocator::ideal(const ThreadQuestion& q) const
{
    // ThreadStage asks choose() and, for a change, cost() twice about the same job.
    if (!(memo_.job == q.job && memo_.category == *q.category && memo_.elapsed == q.elapsed &&
          memo_.stages == q.rest.size() && memo_.c == q.fit.c && memo_.size == q.size && memo_.counts == q.counts)) {
        ChainPlan plan = ideal_plan(q);
        memo_ = Ideal{q.job,  *q.category, q.elapsed, q.rest.size(), q.fit.c, q.size, q.counts,
                      plan.front(), plan_rest_time(q, plan)};
    }
    return memo_;
}

double LongTermAdaptiveAllocator::cost(const ThreadQuestion& q, std::uint32_t threads) const
{
    return thread_cost(q, threads, tier_price(q, threads, sharing_), q.speed, q.elapsed, ideal(q).rest);
}

std::uint32_t LongTermAdaptiveAllocator::choose(const ThreadQuestion& q)
{
    const Ideal& plan = ideal(q);
    std::uint32_t best = q.counts.front();
    double best_cost = cost(q, best);
    for (std::uint32_t t : q.counts) {
        if (t > plan.first)
            break;
        const double c = cost(q, t);
        if (c < best_cost - std::abs(best_cost) * 1e-9)
            best = t, best_cost = c;
    }
    return best;
}

} // namespace burst

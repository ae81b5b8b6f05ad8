#include "policy/threads/greedy_allocator.hpp"

namespace burst {

GreedyAllocator::GreedyAllocator(PolicyParams& params) : sharing_(params.get_double("sharing", 1, 1, 100)) {}

double GreedyAllocator::cost(const ThreadQuestion& q, std::uint32_t threads) const
{
    return thread_cost(q, threads, tier_price(q, threads, sharing_), q.speed, q.elapsed, single_threaded_rest(q));
}

} // namespace burst

#include "policy/threads/best_constant_allocator.hpp"

namespace burst {

double BestConstantAllocator::cost(const ThreadQuestion& q, std::uint32_t threads) const
{
    // A plan per category: not how long the job has waited, nor where.
    return thread_cost(q, threads, q.local_price, 1, 0, single_threaded_rest(q));
}

} // namespace burst

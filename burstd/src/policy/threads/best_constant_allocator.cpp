#include "policy/threads/best_constant_allocator.hpp"

namespace burst {

double BestConstantAllocator::cost(const ThreadQuestion& q, std::uint32_t threads) const
{
    return thread_cost(q, threads, q.local_price, 1);
}

} // namespace burst

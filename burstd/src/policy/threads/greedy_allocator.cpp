#include "policy/threads/greedy_allocator.hpp"

namespace burst {

GreedyAllocator::GreedyAllocator(PolicyParams& params) : sharing_(params.get_double("sharing", 1, 1, 100)) {}

double GreedyAllocator::cost(const ThreadQuestion& q, std::uint32_t threads) const
{
    const double cores = double(q.tasks) * double(q.copies) * double(threads) * sharing_;
    return thread_cost(q, threads, cores <= double(q.free_cpus) ? q.price : q.dear_price, q.speed);
}

} // namespace burst

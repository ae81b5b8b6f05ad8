#include "policy/threads/greedy_allocator.hpp"

namespace burst {

GreedyAllocator::GreedyAllocator(PolicyParams& params) : sharing_(params.get_double("sharing", 1, 1, 100)) {}

double GreedyAllocator::cost(const ThreadQuestion& q, std::uint32_t threads) const
{
    const double tasks = double(q.tasks) * double(q.copies) * sharing_;
    const bool fits = q.free && tasks <= double(q.free->tasks(threads));
    return thread_cost(q, threads, fits ? q.price : q.dear_price, q.speed);
}

} // namespace burst

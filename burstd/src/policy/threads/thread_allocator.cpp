#include "policy/threads/thread_allocator.hpp"

namespace burst {
namespace {

// A fit of a category that does not scale leaves c a rounding error above
// zero; more threads must save more than that.
constexpr double kNoise = 1e-9;

} // namespace

void FreeTaskSlots::add_node(std::uint64_t free_cores)
{
    for (std::size_t i = 0; i < widths_.size(); ++i)
        slots_[i] += free_cores / widths_[i];
}

void FreeTaskSlots::take(std::uint64_t cores)
{
    for (std::size_t i = 0; i < widths_.size(); ++i) {
        const std::uint64_t used = (cores + widths_[i] - 1) / widths_[i];
        slots_[i] = used < slots_[i] ? slots_[i] - used : 0;
    }
}

std::uint64_t FreeTaskSlots::tasks(std::uint32_t width) const
{
    for (std::size_t i = 0; i < widths_.size(); ++i)
        if (widths_[i] == width)
            return slots_[i];
    return 0;
}

double thread_cost(const ThreadQuestion& q, std::uint32_t threads, double price, double speed)
{
    const double n = double(q.tasks);
    return q.fit.time(threads, q.size) / speed * (n * double(threads) * price + q.lambda * n / 3600);
}

std::uint32_t ThreadAllocator::choose(const ThreadQuestion& q) const
{
    std::uint32_t best = q.counts.front();
    double best_cost = cost(q, best);
    for (std::uint32_t t : q.counts) {
        const double c = cost(q, t);
        if (c < best_cost * (1 - kNoise))
            best = t, best_cost = c;
    }
    return best;
}

} // namespace burst

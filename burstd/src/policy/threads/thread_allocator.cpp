#include "policy/threads/thread_allocator.hpp"

#include <algorithm>

namespace burst {
namespace {

// A fit of a category that does not scale leaves c a rounding error above
// zero; more threads must save more than that.
constexpr double kNoise = 1e-9;

} // namespace

void FreeTaskSlots::add_node(std::uint64_t free_cores)
{
    cores_ += free_cores;
    for (std::size_t i = 0; i < widths_.size(); ++i) {
        slots_[i] += free_cores / widths_[i];
        spare_[i] += free_cores % widths_[i];
    }
}

void FreeTaskSlots::take(std::uint64_t cores)
{
    cores_ = cores < cores_ ? cores_ - cores : 0;
    for (std::size_t i = 0; i < widths_.size(); ++i) {
        const std::uint64_t from_spare = std::min(spare_[i], cores);
        spare_[i] -= from_spare;
        const std::uint64_t rest = cores - from_spare;
        const std::uint64_t used = std::min(slots_[i], (rest + widths_[i] - 1) / widths_[i]);
        slots_[i] -= used;
        spare_[i] += used * widths_[i] > rest ? used * widths_[i] - rest : 0; // what a broken slot leaves
    }
}

std::uint64_t FreeTaskSlots::tasks(std::uint32_t width) const
{
    for (std::size_t i = 0; i < widths_.size(); ++i)
        if (widths_[i] == width)
            return slots_[i];
    return width ? cores_ / width : 0;
}

double single_threaded_time(const ScalingFit& fit, double size)
{
    return std::max(fit.time(1, size), 1.0);
}

double thread_cost(const ThreadQuestion& q, std::uint32_t threads, double price, double speed)
{
    const double n = double(q.tasks);
    const double t = single_threaded_time(q.fit, q.size) * (q.fit.c / double(threads) + 1 - q.fit.c);
    return t / speed * (n * double(threads) * price + q.lambda * n / 3600);
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

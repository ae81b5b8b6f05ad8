#include "policy/threads/thread_allocator.hpp"

#include <algorithm>
#include <cmath>

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
    if (cores_ == 0) // a long queue's jobs after the free cores ran out
        return;
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
    if (cores_ == 0)
        return 0;
    for (std::size_t i = 0; i < widths_.size(); ++i)
        if (widths_[i] == width)
            return slots_[i];
    return width ? cores_ / width : 0;
}

double single_threaded_time(const ScalingFit& fit, double size)
{
    return std::max(fit.time(1, size), 1.0);
}

double tier_price(const ThreadQuestion& q, std::uint32_t threads, double sharing)
{
    const double tasks = double(q.tasks) * double(q.copies) * sharing;
    const bool fits = q.free && tasks <= double(q.free->tasks(threads));
    return fits ? q.price : q.dear_price;
}

Seconds stage_time(const ChainStage& stage, std::uint32_t threads)
{
    if (!stage.fit.known)
        return stage.limit;
    return single_threaded_time(stage.fit, stage.size) * (stage.fit.c / threads + 1 - stage.fit.c);
}

Seconds single_threaded_rest(const ThreadQuestion& q)
{
    Seconds rest = 0;
    for (const ChainStage& s : q.rest)
        rest += stage_time(s, s.plannable() ? 1 : s.threads);
    return rest;
}

double waiting_price(const ThreadQuestion& q)
{
    if (q.reward == ThreadReward::Time)
        return q.lambda / 3600;
    const double x = std::max(q.elapsed + single_threaded_time(q.fit, q.size) + single_threaded_rest(q), 1.0);
    return q.reward_scale / (x * x);
}

double chain_penalty(const ThreadQuestion& q, Seconds elapsed, Seconds seconds)
{
    const double n = double(q.tasks);
    if (q.reward == ThreadReward::Time)
        return q.lambda * n * seconds / 3600;
    return -n * q.reward_scale / std::max(elapsed + seconds, 1.0);
}

double thread_cost(const ThreadQuestion& q, std::uint32_t threads, double price, double speed, Seconds elapsed,
                   Seconds rest)
{
    const double n = double(q.tasks);
    const double t = single_threaded_time(q.fit, q.size) * (q.fit.c / double(threads) + 1 - q.fit.c) / speed;
    return t * n * double(threads) * price + chain_penalty(q, elapsed, t + rest);
}

std::uint32_t ThreadAllocator::choose(const ThreadQuestion& q)
{
    std::uint32_t best = q.counts.front();
    double best_cost = cost(q, best);
    for (auto t_it = q.counts.begin() + 1; t_it != q.counts.end(); ++t_it) {
        const std::uint32_t t = *t_it;
        const double c = cost(q, t);
        if (c < best_cost - std::abs(best_cost) * kNoise)
            best = t, best_cost = c;
    }
    return best;
}

} // namespace burst

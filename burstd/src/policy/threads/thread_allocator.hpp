#pragma once
// A thread allocator picks the CPUs per task of one --threads=auto job whose
// category's scaling is known (Smowton et al., section IV-B).  The question
// carries everything the choice may depend on; ThreadStage asks it for every
// such job, in priority order, and says which tier the job is on.
//
// Every allocator weighs the same expected cost of running with t threads,
//     J(t) = T(t)/speed · (n·t·price(t) + λ·n/3600),
// n tasks, T the category's fitted run time: the cores it pays for while it
// runs, plus λ per core-hour of the time its n cores' worth of work is not
// done.  Allocators differ in price(t); each picks the cheapest allowed
// count, the fewest threads among equals.

#include "policy/threads/scaling_model.hpp"

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace burst {

// A tier's free cores as the tasks of each allowed width they hold: a task
// never spans nodes, so 16 nodes with one idle core each hold no 16-wide
// task.  Claims are taken as if packed: from the cores too few to make a
// task of that width first, then a slot at a time.
class FreeTaskSlots {
public:
    explicit FreeTaskSlots(std::vector<std::uint32_t> widths = {})
        : widths_(std::move(widths)), slots_(widths_.size()), spare_(widths_.size())
    {
    }
    void add_node(std::uint64_t free_cores);
    void take(std::uint64_t cores);
    // Tasks `width` wide that fit now; for a width not among the widths, as
    // if the free cores were on one node.
    std::uint64_t tasks(std::uint32_t width) const;
    const std::vector<std::uint64_t>& slots() const { return slots_; }

private:
    std::vector<std::uint32_t> widths_;
    std::vector<std::uint64_t> slots_; // by width
    std::vector<std::uint64_t> spare_; // by width: free cores in no whole slot
    std::uint64_t cores_ = 0;
};

struct ThreadQuestion {
    ScalingFit fit;                // the job's category's, known
    std::uint32_t tasks = 1;
    std::uint64_t copies = 1;      // a pending array's tasks not yet started, each a job like it
    double size = 0;               // the job's size hint (0: none)
    double lambda = 1;             // money per core-hour of work not yet done
    double speed = 1;              // of the tier's cores, relative to local ones
    double price = 0;              // per CPU-second of cores free now on the job's tier
    double local_price = 0;        // per CPU-second of a free local core
    double dear_price = 0;         // per CPU-second of cores beyond those
    const FreeTaskSlots* free = nullptr; // the job's tier's, less earlier choices
    std::vector<std::uint32_t> counts; // allowed, ascending, within the tier's node size; never empty
};

// E at this size, at least a second: a fit by size gives a size it was not
// learned near (0 for a job without a size hint) an intercept that may be
// negative, and E scales every count's cost alike, so only its sign matters.
double single_threaded_time(const ScalingFit& fit, double size);

// J(t) on cores of this price per CPU-second and speed.
double thread_cost(const ThreadQuestion& q, std::uint32_t threads, double price, double speed);

class ThreadAllocator {
public:
    virtual ~ThreadAllocator() = default;
    virtual std::string_view name() const = 0;
    // J of `threads` as this allocator prices it.
    virtual double cost(const ThreadQuestion& q, std::uint32_t threads) const = 0;
    std::uint32_t choose(const ThreadQuestion& q) const;
};

} // namespace burst

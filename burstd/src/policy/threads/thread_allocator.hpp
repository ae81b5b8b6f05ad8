#pragma once
// A thread allocator picks the CPUs per task of one --threads=auto job whose
// category's scaling is known (Smowton et al., section IV-B).  The question
// carries everything the choice may depend on; ThreadStage asks it for every
// such job, in priority order, and says which tier the job is on.
//
// Every allocator weighs the same expected cost of running with t threads,
//     J(t) = T(t)/speed · n·t·price(t) + L(elapsed + T(t)/speed + rest),
// n tasks, T the category's fitted run time: the cores it pays for while it
// runs, plus the reward lost by the time its chain (the job and the jobs
// that wait for it) ends, `elapsed` after the job's submission and `rest`
// after this job.  The time-oriented reward loses λ per core-hour,
// L(x) = λ·n·x/3600; the throughput-oriented one pays R_scale per task in
// inverse proportion to the chain's time, L(x) = −n·R_scale/x (Smowton et
// al., section III-B).  Allocators differ in price(t) and in what they
// expect the rest of the chain to take; each picks the cheapest allowed
// count, the fewest threads among equals.

#include "policy/threads/scaling_model.hpp"

#include "model/job.hpp"

#include <cstdint>
#include <functional>
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
    std::uint64_t cores() const { return cores_; }

private:
    std::vector<std::uint32_t> widths_;
    std::vector<std::uint64_t> slots_; // by width
    std::vector<std::uint64_t> spare_; // by width: free cores in no whole slot
    std::uint64_t cores_ = 0;
};

enum class ThreadReward { Time, Throughput };

// A job of the chain that waits for the one asked about, in order.
struct ChainStage {
    JobId job = 0;
    const JobCategory* category = nullptr; // the job's own: a copy would touch the interned entry
    ScalingFit fit; // its category's
    std::uint32_t tasks = 1;
    double size = 0;
    std::uint32_t threads = 1; // its CPUs per task now
    bool automatic = false;    // --threads=auto: a plan may give it another count once its scaling is known
    Seconds limit = 0;         // its time limit, what it counts for while its scaling is not known (0: none)

    bool plannable() const { return automatic && fit.known; }
};

struct ThreadQuestion {
    JobId job = 0;
    const JobCategory* category = nullptr; // the job's own or the book's: a copy would touch the interned entry
    ScalingFit fit;                // the job's category's, known
    std::uint32_t tasks = 1;
    std::uint64_t copies = 1;      // a pending array's tasks not yet started, each a job like it
    double size = 0;               // the job's size hint (0: none)
    double lambda = 1;             // money per core-hour of work not yet done
    ThreadReward reward = ThreadReward::Time;
    double reward_scale = 0;       // throughput: money·s per task of a whole chain
    Seconds elapsed = 0;           // since the job was submitted
    std::vector<ChainStage> rest;  // the jobs after it in its chain
    double speed = 1;              // of the tier's cores, relative to local ones
    double price = 0;              // per CPU-second of cores free now on the job's tier
    double local_price = 0;        // per CPU-second of a free local core
    double dear_price = 0;         // per CPU-second of cores beyond those: at most waiting_price
    const FreeTaskSlots* free = nullptr; // the job's tier's, less earlier choices
    std::vector<std::uint32_t> counts; // allowed, ascending, within the tier's node size; never empty
};

// E at this size, at least a second: a fit by size gives a size it was not
// learned near (0 for a job without a size hint) an intercept that may be
// negative, and E scales every count's cost alike, so only its sign matters.
double single_threaded_time(const ScalingFit& fit, double size);

// The price per CPU-second of `threads` for the job on its tier: the free
// cores' when its tasks (times `sharing`: as if that many more jobs like it
// were about to ask) fit in them, node by node, else the dear price for all
// of them, as it would run on the next dearer capacity.
double tier_price(const ThreadQuestion& q, std::uint32_t threads, double sharing);

// Seconds a stage of the chain takes with `threads`: by its category's fit
// when known, else its time limit.
Seconds stage_time(const ChainStage& stage, std::uint32_t threads);
// Seconds the rest of the chain takes on local cores, each stage a plan may
// change single-threaded, the others at their own counts.
Seconds single_threaded_rest(const ThreadQuestion& q);
// What a CPU-second of waiting costs the job: λ/3600 for the time-oriented
// reward; for the throughput-oriented one the reward a task's chain loses
// per second, R_scale/x² at x = e + T(1) + the rest single-threaded.  The
// dear price is never above it: a job may always wait instead.
double waiting_price(const ThreadQuestion& q);
// The reward lost by the job's chain ending `seconds` from now, `elapsed`
// after the job's submission.
double chain_penalty(const ThreadQuestion& q, Seconds elapsed, Seconds seconds);

// J(t) on cores of this price per CPU-second and speed, the job starting
// `elapsed` after its submission and the rest of its chain taking `rest`.
double thread_cost(const ThreadQuestion& q, std::uint32_t threads, double price, double speed, Seconds elapsed,
                   Seconds rest);

class ThreadAllocator {
public:
    virtual ~ThreadAllocator() = default;
    virtual std::string_view name() const = 0;
    // J of `threads` as this allocator prices it.
    virtual double cost(const ThreadQuestion& q, std::uint32_t threads) const = 0;
    // The count to give the job: the cheapest allowed.
    virtual std::uint32_t choose(const ThreadQuestion& q);
    // Whether it reads the rest of a job's chain under the time-oriented
    // reward, where the rest cannot change a choice made job by job.
    virtual bool plans_chains() const { return false; }
    // The choice follows a plan made earlier, whatever it costs now: a
    // pending job is changed to it even when its count costs little more.
    virtual bool committed(const ThreadQuestion&) const { return false; }
    // Plans an allocator keeps for jobs that `live` no longer holds go.
    virtual void forget_unless(const std::function<bool(JobId)>& live) { (void)live; }
};

} // namespace burst

#pragma once
// The thread step of a decision cycle (ThreadPolicy= in burstd.conf): after
// the hiring chain has routed jobs, gives each pending --threads=auto job
// whose category's scaling is known the CPUs per task its allocator finds
// cheapest on the tier it is now on, and says what a new job of each known
// category would get (the advice job_submit/burst applies at submission).
//
// Pending jobs are taken in priority order; each takes its cores from its
// tier's free ones (local nodes, or its node group's room), so a job sees
// what those before it leave.  A job is changed only when its current count
// costs more than its choice by min_gain of the choice's magnitude, so that
// counts do not flap with every small change in free cores (unless the
// allocator follows a plan made earlier), and at most max_changes jobs are
// changed per cycle (each is a job update in slurmctld), the first in
// priority order.  Jobs whose user gave a count keep it.  An auto job held
// by a dependency on jobs that are all running locally is weighed too, on
// local nodes with the cores its parents will leave it and the free ones:
// when they end it may start at once, before the next cycle.  Held jobs are
// weighed in the order their parents are expected to end (their fitted run
// time, else their time limit), and only those expected to start before the
// next cycle take free cores from the held jobs after them and from the
// advice: a job that starts in hours would otherwise keep today's idle cores
// from the stage that starts in seconds.  Each job is weighed with the chain of jobs
// that wait for it (their dependencies name it), which the allocators that
// plan over chains read.  Auto jobs of a
// category not known yet keep one CPU per task, but for a share of them
// (explore) that runs at explore_threads on idle local cores: without runs
// at two counts or more its scaling could never be learned.
//
// The advice is kept from cycle to cycle: redone for every category when
// what a new job would see changes (the free local cores, as far as any
// allowed count can tell), else only for the categories learned from since.

#include "model/cluster_state.hpp"
#include "policy/decision.hpp"
#include "policy/policy_params.hpp"
#include "policy/threads/scaling_book.hpp"
#include "policy/site/site_view.hpp"
#include "policy/threads/thread_allocator.hpp"
#include "policy/site/site_view_builder.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace burst {

struct ThreadStageSettings {
    double lambda = 1;        // money per core-hour of work not yet done
    ThreadReward reward = ThreadReward::Time;
    double reward_scale = 3600; // throughput: money·s per task of a whole chain
    double local_price = 0;   // money per local core-hour
    std::uint32_t max_threads = 64;
    std::vector<std::uint32_t> counts{1, 2, 4, 8, 16, 32, 64};
    double min_gain = 0.05;
    std::uint32_t max_changes = 200;
    double explore = 0.1;               // share of an unknown category's jobs run at explore_threads
    std::uint32_t explore_threads = 4;

    // Reads lambda, reward, reward_scale, local_price, max, counts, min_gain, max_changes,
    // explore and explore_threads; throws PolicyConfigError.
    static ThreadStageSettings from(PolicyParams& params);
};

// What a job's tier offers it: free cores, their price, and how wide a task may be.
struct ThreadTier {
    const GroupView* group = nullptr; // none: local nodes
    FreeTaskSlots* free = nullptr;    // shared by the jobs on it, taken in priority order
    double price = 0;                 // per CPU-second
    double dear_price = 0;            // of the cheapest group that could take the job; infinity: none
    double speed = 1;
    std::uint32_t node_cpus = 0;
};

struct ThreadStageOutcome {
    std::vector<Action> actions; // SetJobThreads, in priority order
    bool advice_changed = false;
};

// Category -> CPUs per task for a new one-task job.
using ThreadAdvice = std::map<std::string, std::uint32_t>;

class ThreadStage {
public:
    ThreadStage(std::unique_ptr<ThreadAllocator> allocator, ThreadStageSettings settings)
        : allocator_(std::move(allocator)), settings_(std::move(settings))
    {
    }
    // Advised categories at most: the table goes in one line, which
    // job_submit/burst reads up to 1 MiB of (about 24 bytes a category).
    static constexpr std::size_t kMaxAdvice = 32768;

    std::string_view name() const { return allocator_->name(); }
    // The time to the next decision cycle (CycleInterval; burstd's default
    // until told): held jobs expected to start within it claim free cores.
    void set_decision_interval(Seconds interval) { decision_interval_ = interval; }
    const ThreadStageSettings& settings() const { return settings_; }
    ThreadStageOutcome decide(const ClusterState& state, const ScalingBook& book);
    // Up to kMaxAdvice categories, those first advised.
    const ThreadAdvice& advice() const { return advice_; }

private:
    SiteViewBuilder site_; // each decision's view, in storage kept from the last
    // What a new job's question depends on besides its category's fit.
    struct AdviceInputs {
        std::vector<std::uint64_t> free_tasks; // by allowed count, capped where the sharing factor stops
        double dear_price = 0;
        std::uint32_t widest_node = 0;
        bool operator==(const AdviceInputs& o) const
        {
            return free_tasks == o.free_tasks && dear_price == o.dear_price && widest_node == o.widest_node;
        }
    };
    bool update_advice(const ScalingBook& book, ThreadQuestion& q, const FreeTaskSlots& local,
                       const AdviceInputs& inputs);
    // The change the allocator finds worth making to a pending auto job,
    // if any (`q` is scratch kept across jobs).
    std::optional<Action> weigh(const Job& job, const ThreadTier& tier, const ScalingFit& fit, ThreadQuestion& q);
    // A run at another count for a job of a category not known yet: only
    // a picked share of its jobs, only on idle local cores.
    std::optional<Action> explore(const Job& job, const ThreadTier& tier, std::uint32_t tasks,
                                  const std::vector<std::uint32_t>& counts, const ScalingFit& fit) const;

    std::unique_ptr<ThreadAllocator> allocator_;
    ThreadStageSettings settings_;
    Seconds decision_interval_ = 30;
    ThreadAdvice advice_;
    AdviceInputs advice_inputs_;
    std::uint64_t advice_version_ = 0; // the book's, when advice_ was last brought up to date
};

} // namespace burst

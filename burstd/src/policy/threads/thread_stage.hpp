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
// costs more than 1 + min_gain times the choice, so that counts do not flap
// with every small change in free cores.  Categories that are not known,
// and jobs whose user gave a count, keep what the user asked for.

#include "model/cluster_state.hpp"
#include "policy/decision.hpp"
#include "policy/policy_params.hpp"
#include "policy/threads/scaling_book.hpp"
#include "policy/threads/thread_allocator.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace burst {

struct ThreadStageSettings {
    double lambda = 1;        // money per core-hour of work not yet done
    double local_price = 0;   // money per local core-hour
    std::uint32_t max_threads = 64;
    std::vector<std::uint32_t> counts{1, 2, 4, 8, 16, 32, 64};
    double min_gain = 0.05;

    // Reads lambda, local_price, max, counts and min_gain; throws PolicyConfigError.
    static ThreadStageSettings from(PolicyParams& params);
};

struct ThreadStageOutcome {
    std::vector<Action> actions;                // SetJobThreads, in priority order
    std::map<std::string, std::uint32_t> advice; // category -> CPUs per task for a new one-task job
};

class ThreadStage {
public:
    ThreadStage(std::unique_ptr<ThreadAllocator> allocator, ThreadStageSettings settings)
        : allocator_(std::move(allocator)), settings_(std::move(settings))
    {
    }
    std::string_view name() const { return allocator_->name(); }
    ThreadStageOutcome decide(const ClusterState& state, const ScalingBook& book) const;

private:
    std::unique_ptr<ThreadAllocator> allocator_;
    ThreadStageSettings settings_;
};

} // namespace burst

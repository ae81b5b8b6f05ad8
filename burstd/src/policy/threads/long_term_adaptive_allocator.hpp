#pragma once
// Smowton et al.'s long-term adaptive allocation: for each job it works out
// the ideal plan for the rest of its chain on idle local cores, given how
// long the chain has taken so far (chain_plan.hpp's ideal_plan), then
// weighs the counts up to the plan's first as greedy does, expecting the
// rest of the chain to follow the ideal plan.  Its history is the time since
// the job's own submission: a chain submitted at once.  It is optimistic where greedy
// is pessimistic: under the throughput-oriented reward, which pays for the
// share of the chain's time saved, that makes it the bolder of the two.

#include "policy/policy_params.hpp"
#include "policy/threads/chain_plan.hpp"
#include "policy/threads/thread_allocator.hpp"

#include <string>

namespace burst {

class LongTermAdaptiveAllocator final : public ThreadAllocator {
public:
    static constexpr std::string_view kName = "long-term-adaptive";
    explicit LongTermAdaptiveAllocator(PolicyParams& params);
    std::string_view name() const override { return kName; }
    bool plans_chains() const override { return true; }
    double cost(const ThreadQuestion& q, std::uint32_t threads) const override;
    std::uint32_t choose(const ThreadQuestion& q) override;

private:
    // The ideal plan's count for the job and the time it gives the rest.
    struct Ideal {
        JobId job = 0;
        JobCategory category;
        Seconds elapsed = -1;
        std::size_t stages = 0;
        double c = -1, size = -1;
        std::vector<std::uint32_t> counts;
        std::uint32_t first = 1;
        Seconds rest = 0;
    };
    const Ideal& ideal(const ThreadQuestion& q) const;

    double sharing_;
    mutable Ideal memo_; // the last question's
};

} // namespace burst

#pragma once
// Smowton et al.'s greedy allocation: the count with the lowest expected cost
// now, each count at its tier_price with the sharing factor.  So an auto job takes many threads
// while local cores are idle and few once they are busy or it runs in a
// dear cloud group.  The rest of its chain it expects to run
// single-threaded: this job is the only chance it counts on.

#include "policy/policy_params.hpp"
#include "policy/threads/thread_allocator.hpp"

namespace burst {

class GreedyAllocator final : public ThreadAllocator {
public:
    static constexpr std::string_view kName = "greedy";
    explicit GreedyAllocator(PolicyParams& params);
    std::string_view name() const override { return kName; }
    double cost(const ThreadQuestion& q, std::uint32_t threads) const override;

private:
    double sharing_;
};

} // namespace burst

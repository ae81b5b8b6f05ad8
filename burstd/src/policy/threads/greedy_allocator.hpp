#pragma once
// Smowton et al.'s greedy allocation: the count with the lowest expected cost
// now.  A count whose tasks (times the sharing factor: as if that many more
// jobs like it were about to ask) fit in the tier's free cores, node by node,
// pays the free cores' price; one that does not pays the dear price for all
// of them, as it would run on the next dearer capacity.  So an auto job takes many threads
// while local cores are idle and few once they are busy or it runs in a
// dear cloud group.

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

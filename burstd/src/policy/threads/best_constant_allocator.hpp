#pragma once
// The baseline: one count per category, the cheapest on free local cores,
// whatever the tier and however busy it is (the paper's "best constant
// plan", each job being its own one-stage pipeline).

#include "policy/policy_params.hpp"
#include "policy/threads/thread_allocator.hpp"

namespace burst {

class BestConstantAllocator final : public ThreadAllocator {
public:
    static constexpr std::string_view kName = "best-constant";
    explicit BestConstantAllocator(PolicyParams&) {}
    std::string_view name() const override { return kName; }
    double cost(const ThreadQuestion& q, std::uint32_t threads) const override;
};

} // namespace burst

#pragma once
// Smowton et al.'s long-term allocation: when the first job of a chain is
// weighed, a plan for the whole chain is picked from a shortlist of plans
// that invest more core-time only for more reward (chain_plan.hpp), by what
// each costs at the utilisation of that moment; the later jobs of the chain
// then get the plan's counts whatever the utilisation when they run (the
// first job is planned anew every cycle until it starts).  Every stage is
// priced on the first job's tier.  It plans rigidly on purpose: it is the
// paper's foil for the adaptive variant.
// Its plans for jobs not pending any more are forgotten.

#include "policy/policy_params.hpp"
#include "policy/threads/chain_plan.hpp"
#include "policy/threads/thread_allocator.hpp"

#include <deque>
#include <string>
#include <unordered_map>

namespace burst {

class LongTermAllocator final : public ThreadAllocator {
public:
    static constexpr std::string_view kName = "long-term";
    static constexpr std::size_t kShortlist = 10;
    explicit LongTermAllocator(PolicyParams& params);
    std::string_view name() const override { return kName; }
    bool plans_chains() const override { return true; }
    double cost(const ThreadQuestion& q, std::uint32_t threads) const override;
    std::uint32_t choose(const ThreadQuestion& q) override;
    // A later job of a planned chain: its plan holds whatever it costs now.
    bool committed(const ThreadQuestion& q) const override;
    void forget_unless(const std::function<bool(JobId)>& live) override;

private:
    // The shortlist for the chain's categories, sizes (within 2%), tasks,
    // counts and prices, kept while its fits stay close to those it was made
    // from; the oldest of kMaxShortlists goes first.
    const std::vector<ChainPlan>& shortlist(const ThreadQuestion& q);

    struct Shortlist {
        std::vector<double> fits; // c and E of each stage it was made from
        std::vector<ChainPlan> plans;
    };
    double sharing_;
    std::unordered_map<JobId, std::uint32_t> planned_; // later jobs of planned chains
    std::unordered_map<std::string, Shortlist> shortlists_;
    std::deque<std::string> made_; // shortlists_' keys, oldest first
};

} // namespace burst

#pragma once
// A link of burstd's chain with its decide() timed for the cycle metrics;
// the decision cycle itself reads no clock.

#include "policy/policy.hpp"

#include <chrono>
#include <memory>

namespace burst {

class TimedPolicy final : public Policy {
public:
    // `seconds` accumulates the wall time of every decide().
    TimedPolicy(std::unique_ptr<Policy> policy, double& seconds) : policy_(std::move(policy)), seconds_(seconds) {}

    std::string_view name() const override { return policy_->name(); }
    Decision decide(const ClusterState& state, const Clock& clock) override
    {
        const auto t0 = std::chrono::steady_clock::now();
        Decision d = policy_->decide(state, clock);
        seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return d;
    }
    void observe(const JobEnd& end) override { policy_->observe(end); }
    bool wants_decision(const SiteActivity& activity) const override { return policy_->wants_decision(activity); }
    void set_notes_read(bool read) override { policy_->set_notes_read(read); }

private:
    std::unique_ptr<Policy> policy_;
    double& seconds_;
};

} // namespace burst

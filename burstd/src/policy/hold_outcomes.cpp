#include "policy/hold_outcomes.hpp"

namespace burst {

void HoldOutcomes::observe(const JobEnd& end)
{
    if (held_.erase(end.id) == 0)
        return;
    const bool burst = !end.node_group.empty();
    if (outcomes_.size() < window_) {
        outcomes_.push_back(burst);
    } else {
        bursts_ -= outcomes_[next_];
        outcomes_[next_] = burst;
        next_ = (next_ + 1) % window_;
    }
    bursts_ += burst;
}

double HoldOutcomes::burst_share() const
{
    if (outcomes_.size() < min_samples_ || outcomes_.empty())
        return 0;
    return double(bursts_) / double(outcomes_.size());
}

} // namespace burst

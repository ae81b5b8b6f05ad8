#include "policy/hiring/forecast/hold_outcomes.hpp"

#include <algorithm>

namespace burst {

void HoldOutcomes::held(JobId job, Time now, double wait_rate, double forecast_price)
{
    held_.try_emplace(job, Hold{now, wait_rate, forecast_price});
}

void HoldOutcomes::routed(JobId job, Time now, double burst_price)
{
    const auto it = held_.find(job);
    if (it != held_.end())
        it->second.routed_price = it->second.wait_rate * double(now - it->second.since) + burst_price;
}

void HoldOutcomes::observe(const JobEnd& end)
{
    const auto it = held_.find(end.id);
    if (it == held_.end())
        return;
    const Hold h = it->second;
    held_.erase(it);
    const Time start = end.end_time - end.elapsed;
    const Outcome o{h.routed_price >= 0 ? h.routed_price : h.wait_rate * double(std::max<Time>(0, start - h.since)),
                    h.forecast_price};
    if (outcomes_.size() < window_) {
        outcomes_.push_back(o);
    } else {
        actual_ -= outcomes_[next_].actual;
        forecast_ -= outcomes_[next_].forecast;
        outcomes_[next_] = o;
        next_ = (next_ + 1) % window_;
    }
    actual_ += o.actual;
    forecast_ += o.forecast;
}

double HoldOutcomes::cost_ratio() const
{
    if (outcomes_.size() < min_samples_ || forecast_ <= 0)
        return 1;
    return std::max(0.0, actual_ / forecast_);
}

} // namespace burst

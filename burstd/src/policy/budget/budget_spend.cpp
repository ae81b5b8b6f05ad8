#include "policy/budget/budget_spend.hpp"

#include <algorithm>

namespace burst {

Seconds reported_spend_interval(const std::vector<BudgetLimit>& limits)
{
    if (limits.empty())
        return kReportedSpendIntervalWithoutBudgets;
    return std::min_element(limits.begin(), limits.end(), [](const BudgetLimit& a, const BudgetLimit& b) {
               return a.interval < b.interval;
           })->interval;
}

IntervalSpend BudgetSpend::update(Time now, const std::vector<BudgetLimit>& limits,
                                  const std::vector<BilledSpan>& spans, const std::vector<Job>& jobs,
                                  const std::vector<NodeGroup>& groups, std::optional<Seconds> reported_interval)
{
    IntervalSpend spent;
    std::map<Seconds, SpendTracker> kept;
    auto book = [&](Seconds interval) {
        if (spent.count(interval))
            return;
        auto node = trackers_.extract(interval);
        SpendTracker tracker = node.empty() ? SpendTracker(interval) : std::move(node.mapped());
        if (auto kept_booking = resumable_.find(interval); kept_booking != resumable_.end())
            tracker.resume(kept_booking->second);
        if (!updated_)
            for (const JobEnd& end : early_ends_)
                tracker.job_ended(end);
        spent[interval] = tracker.update(now, spans, jobs, groups).accounts;
        kept.emplace(interval, std::move(tracker));
    };
    for (const auto& l : limits)
        book(l.interval);
    if (reported_interval)
        book(*reported_interval);
    trackers_ = std::move(kept);
    updated_ = true;
    resumable_.clear();
    early_ends_.clear();
    return spent;
}

std::vector<SpendBooking> BudgetSpend::bookings() const
{
    std::vector<SpendBooking> out;
    out.reserve(trackers_.size());
    for (const auto& [interval, tracker] : trackers_)
        out.push_back(tracker.booking());
    return out;
}

void BudgetSpend::resume(std::vector<SpendBooking> bookings)
{
    if (updated_)
        return;
    for (auto& b : bookings)
        resumable_[b.interval] = std::move(b);
}

} // namespace burst

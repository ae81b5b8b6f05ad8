#include "sim/engine/budget_booking.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace burst {

Time BudgetBooking::earliest_interval_start(Time now) const
{
    Time earliest = now;
    for (const auto& b : budgets_)
        earliest = std::min(earliest, Time(std::floor(now / b.interval) * b.interval));
    return earliest;
}

IntervalSpend BudgetBooking::book(Time now, const std::vector<BilledSpan>& spans, const std::vector<Job>& jobs,
                                  const std::vector<NodeGroup>& groups)
{
    IntervalSpend spent = spend_.update(now, budgets_, spans, jobs, groups);
    for (const auto& [interval, tracker] : spend_.trackers()) {
        SpendView& open = open_[interval];
        const SpendView& last = tracker.last();
        if (open.interval > 0 && open.interval_start != last.interval_start)
            booked_.push_back(BookedInterval{interval, open.interval_start, std::move(open.accounts)});
        open = last;
    }
    return spent;
}

void BudgetBooking::job_ended(const JobEnd& end)
{
    if (!budgets_.empty())
        spend_.job_ended(end);
}

std::vector<BookedInterval> BudgetBooking::booked()
{
    for (auto& [interval, view] : open_)
        booked_.push_back(BookedInterval{interval, view.interval_start, std::move(view.accounts)});
    open_.clear();
    std::stable_sort(booked_.begin(), booked_.end(),
                     [](const BookedInterval& a, const BookedInterval& b) { return a.interval < b.interval; });
    return std::move(booked_);
}

} // namespace burst

#pragma once
// Spend booked against the Budget= lines (SimConfig::budgets) as burstd
// books it: every decision cycle burstd's SpendTracker books instance uptime
// at the group's price, split over the accounts of the jobs on the node (""
// for the rest), one tracker per interval length (BudgetSpend).  What each
// interval had booked at its last booking there is kept for the result;
// the uptime between that booking and the interval's end is booked nowhere,
// as in burstd.  Without lines nothing is booked.

#include "model/billed_span.hpp"
#include "model/clock.hpp"
#include "model/job.hpp"
#include "model/node_group.hpp"
#include "policy/budget/budget_cap.hpp"
#include "policy/budget/budget_spend.hpp"
#include "sim/engine/simulator.hpp"

#include <map>
#include <vector>

namespace burst {

class BudgetBooking {
public:
    explicit BudgetBooking(const std::vector<BudgetLimit>& budgets) : budgets_(budgets) {}

    // The start of the earliest interval a line tracks at `now`.
    Time earliest_interval_start(Time now) const;
    // Books `spans` (instances billed in a tracked interval) up to `now`
    // over the accounts of `jobs`; returns the spend per interval length
    // for the cap.
    IntervalSpend book(Time now, const std::vector<BilledSpan>& spans, const std::vector<Job>& jobs,
                       const std::vector<NodeGroup>& groups);
    // A job ended: the trackers book the end of its run at the next booking.
    void job_ended(const JobEnd& end);
    // Every interval booked, by interval length, then time (the open ones
    // as they were at the last booking).
    std::vector<BookedInterval> booked();

private:
    const std::vector<BudgetLimit>& budgets_;
    BudgetSpend spend_;
    std::map<Seconds, SpendView> open_;   // interval length -> its current interval
    std::vector<BookedInterval> booked_;  // intervals over, in the order they ended
};

} // namespace burst

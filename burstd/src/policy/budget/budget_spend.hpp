#pragma once
// What BudgetCap counts as spent: per Budget= interval length, one
// SpendTracker kept from cycle to cycle (a tracker accrues per-account spend
// between its updates, so it must see every cycle).  burstd and burstsim both
// book spend through it.  A new set of limits (a reload) keeps the trackers of
// the intervals it still uses and starts the others afresh.  burstd's status
// and metrics count spend per interval too (reported_spend_interval):
// `reported_interval` keeps that length's tracker, shared with the limits of
// the same length rather than integrated twice.

#include "model/billed_span.hpp"
#include "model/clock.hpp"
#include "model/job.hpp"
#include "model/node_group.hpp"
#include "policy/budget/budget_cap.hpp"
#include "policy/budget/spend_tracker.hpp"

#include <map>
#include <optional>
#include <vector>

namespace burst {

// What status and metrics count spend over without Budget= lines: a day.
constexpr Seconds kReportedSpendIntervalWithoutBudgets = 86400;

// The interval status and metrics count spend over: the shortest of the
// limits', so a site reads there what its tightest budget counts.
Seconds reported_spend_interval(const std::vector<BudgetLimit>& limits);

class BudgetSpend {
public:
    IntervalSpend update(Time now, const std::vector<BudgetLimit>& limits, const std::vector<BilledSpan>& spans,
                         const std::vector<Job>& jobs, const std::vector<NodeGroup>& groups,
                         std::optional<Seconds> reported_interval = std::nullopt);
    // Every tracker books the end of the job's run at its next update; ends
    // heard before the first update (there is no tracker yet) go to the
    // trackers it creates.
    void job_ended(const JobEnd& end)
    {
        if (!updated_) {
            if (early_ends_.size() < kMostEarlyEnds)
                early_ends_.push_back(end);
            return;
        }
        for (auto& [interval, tracker] : trackers_)
            tracker.job_ended(end);
    }
    // Interval length -> its tracker, as of the last update.
    const std::map<Seconds, SpendTracker>& trackers() const { return trackers_; }

    // Every tracker's booking, to keep across a restart.
    std::vector<SpendBooking> bookings() const;
    // The bookings a previous run kept, before the first update: the
    // trackers it creates carry on from those of their interval lengths.
    // The others are dropped, as the trackers of a reload's dropped lines
    // are (what burstd keeps in the ledger is what it counts).
    void resume(std::vector<SpendBooking> bookings);

private:
    std::map<Seconds, SpendTracker> trackers_;
    std::map<Seconds, SpendBooking> resumable_; // until the first update
    bool updated_ = false;
    // Job ends reported before the first update: after a restart the
    // plugin's queued ends come before its first snapshot.
    std::vector<JobEnd> early_ends_;
    static constexpr std::size_t kMostEarlyEnds = 1 << 16; // more than any exporter queues
};

} // namespace burst

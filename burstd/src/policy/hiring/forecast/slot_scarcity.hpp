#pragma once
// How much waiting a group's node slots would have relieved, learned from
// when the group had no room for jobs that would have paid for a burst
// (forecast's slots=blocked; doc/policies.md, section "forecast").  The
// recent past stands for the near future: a burst about to hold `cores`
// for T seconds is charged the waiting as many cores of room would have
// relieved over the last T seconds.  Each decision records the cores of
// such blocked jobs, held until the next record.  The waiting is bounded by
// cores × the time such jobs waited and by the core-seconds they waited
// (an upper bound on the integral of min(cores, blocked)): both running
// totals, so a query is a binary search.  Records come in non-decreasing
// time; marks older than the longest window asked for (keep()) are dropped.

#include "model/clock.hpp"

#include <deque>

namespace burst {

class SlotScarcity {
public:
    // From `now` on, `blocked_cores` of jobs that would pay for a burst find no room.
    void record(Time now, double blocked_cores);
    // Core-seconds of waiting over [now − window, now] that `cores` more
    // cores of room would have relieved (upper bound, see above).
    double denied(Time now, Seconds window, double cores) const;
    // Windows up to `span` may be asked for: keep what they reach.
    void keep(Seconds span);
    // Drops marks no window kept reaches.
    void forget(Time now);
    std::size_t size() const { return marks_.size(); }

private:
    struct Mark {
        Time at;
        double blocked_cores;   // from `at` until the next mark
        double blocked_seconds; // totals up to `at`
        double blocked_core_seconds;
    };
    struct Totals {
        double seconds = 0;
        double core_seconds = 0;
    };
    Totals totals_at(Time t) const;

    std::deque<Mark> marks_;
    Seconds longest_ = 0;
};

} // namespace burst

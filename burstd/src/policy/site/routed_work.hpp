#pragma once
// Work (core-seconds) a policy routed to the cloud, by when it was routed,
// and how much of it was routed since a given time.  Times are added in
// non-decreasing order (one policy's decisions); a query is a binary search
// over running totals.  Entries older than the longest span the policy said
// it may ask about since it last forgot (keep(), once per decision: the
// longest look-back of the jobs in play) are dropped as time moves on, so
// memory is bounded by the routes within that span, and shrinks with it
// when the jobs that needed a long look-back have left.  A longer span
// asked for later reaches back only as far as was kept.

#include "model/clock.hpp"

#include <deque>
#include <utility>

namespace burst {

class RoutedWork {
public:
    // `core_seconds` routed at `now` (not before the last add).
    void add(Time now, double core_seconds);
    // Work routed in [now − window, now].
    double within(Time now, Seconds window) const;
    // Windows up to `span` may be asked for until after the next forget():
    // keep what they reach.
    void keep(Seconds span);
    // Drops the entries older than now − the longest span kept since the
    // last forget(), and starts over: the next forget() keeps only what
    // keep() asks for in between.
    void forget(Time now);
    std::size_t size() const { return entries_.size(); }

private:
    std::deque<std::pair<Time, double>> entries_; // (time, total routed before it)
    double total_ = 0;
    Seconds longest_ = 0;
};

} // namespace burst

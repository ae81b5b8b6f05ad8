#pragma once
// Money spent on cloud instances in the current budget interval, per node
// group and per Slurm account, for ClusterState, the budget cap, status and
// metrics, in burstd and burstsim alike.  Intervals are aligned to the epoch
// (a day starts at 00:00 UTC).
//
// Per group it is recomputed from the billed spans every time (launch to the
// end of the instance's last billed period, or now, clipped to the
// interval, pro rata), so in burstd, where the spans come from the ledger,
// it survives restarts.  Per account it is accrued between two updates:
// each instance's cost over that span is split over the jobs on its node by
// their share of its cores, each job from where its booking last stopped
// (its start, the first time: a job CONFIGURING on booting nodes pays for
// the boot, which the cap commits to it) to now, to its end if it ended
// since (job_ended), or to now if it went back to pending (requeued: Slurm
// sends no end).  The rest (idle cores, billed time after a power-down) is
// the "" account, so the accounts add up to the groups' total.  After a
// restart burstd resumes from the booking kept in its ledger (resume): the
// first update splits only the time since over the jobs running then;
// without a booking, the interval so far, which keeps per-account lines
// charged for what their nodes cost rather than letting them spend it again.

#include "model/billed_span.hpp"
#include "model/clock.hpp"
#include "model/job.hpp"
#include "model/node_group.hpp"
#include "model/spend_booking.hpp"

#include <cmath>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace burst {

// Budget intervals are aligned to the epoch (a day is a UTC day): the one holding `now`.
inline Time interval_start(Time now, Seconds interval)
{
    return std::floor(now / interval) * interval;
}

struct SpendView {
    Time interval_start = 0;
    Seconds interval = 0;
    double total = 0;
    std::map<std::string, double> groups;
    std::map<std::string, double> accounts; // "" = not attributable to a job
};

class SpendTracker {
public:
    // interval > 0: Budget= lines are checked when read.
    explicit SpendTracker(Seconds interval);

    SpendView update(Time now, const std::vector<BilledSpan>& spans, const std::vector<Job>& jobs,
                     const std::vector<NodeGroup>& groups);
    // A job that ended (on cloud nodes: its nodes are named); the next update
    // books its run since the last one.
    void job_ended(const JobEnd& end);
    const SpendView& last() const { return last_; }

    // What the tracker has booked so far, to resume from after a restart.
    SpendBooking booking() const { return SpendBooking{interval_, interval_start_, last_update_, attributed_}; }
    // Carries on from a booking of the same interval length; the first
    // update books from its booked_until, or starts afresh if the interval
    // has ended since.  Only before the first update.
    void resume(const SpendBooking& booking);

private:
    Seconds interval_;
    Time interval_start_ = 0;
    Time last_update_ = 0;
    std::map<std::string, double> attributed_; // accounts other than ""
    // Jobs running on cloud nodes, and up to when they are booked.
    struct Seen {
        std::string account;
        double cpus = 0;
        std::vector<std::string> nodes;
        Time booked_until = 0;
        bool listed = true; // by this update's snapshot
    };
    std::unordered_map<JobId, Seen> seen_;
    std::unordered_map<JobId, JobEnd> ended_; // reported since the last update
    // Booked to their ends, kept while a snapshot lists them (COMPLETING).
    struct Done {
        Time end = 0;
        bool listed = true;
    };
    std::unordered_map<JobId, Done> done_;
    SpendView last_;
};

} // namespace burst

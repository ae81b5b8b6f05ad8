#pragma once
// Where burstd's RunMetrics (the metrics burstsim reports, see
// model/run_metrics.hpp) get their events: the plugin's snapshots and
// job_end messages, and each cycle's spend and budget standings.  Pure: the
// cycle passes the time.
//
// A job's wait (eligible to start) counts once, when it is first seen
// started: running in a snapshot, or in its job_end if it started and ended
// between two snapshots.  Jobs that started before `epoch` (burstd's start)
// do not count: their waits belonged to the burstd before, whose counters
// went with it (Prometheus counters restart from zero).  Cloud nodes' powered
// core-seconds are integrated cycle to cycle from the snapshot's node states;
// busy ones come from job ends on cloud nodes, clipped to the epoch.  Money
// is the spend tracker's growth from cycle to cycle.

#include "policy/budget/spend_tracker.hpp"
#include "model/clock.hpp"
#include "model/job.hpp"
#include "model/run_metrics.hpp"
#include "model/snapshot.hpp"
#include "policy/budget/budget_cap.hpp"

#include <optional>
#include <unordered_map>
#include <vector>

namespace burst {

class RunMetricsFeed {
public:
    // How long a counted job is remembered once no snapshot shows it
    // running, so a late job_end (or a stale snapshot) does not count it again.
    static constexpr Seconds kForgetAfter = 600;

    explicit RunMetricsFeed(Time epoch = 0, double tau = 10);
    void set_epoch(Time epoch) { epoch_ = epoch; }
    Time epoch() const { return epoch_; }

    void snapshot(const Snapshot& snap, Time now);
    void job_end(const JobEnd& end);
    void spend(const SpendView& view);
    void budgets(const std::vector<BudgetStanding>& standings, Time now);

    const RunMetrics& metrics() const { return metrics_; }
    // Jobs counted as started and not yet seen ending (bounded by the
    // running jobs plus those ended within kForgetAfter).
    std::size_t remembered() const { return started_.size(); }

private:
    struct Counted {
        Seconds wait = 0;
        bool ended = false;
        Time missing_since = -1; // -1 while a snapshot shows it running
    };

    Time epoch_;
    RunMetrics metrics_;
    std::unordered_map<JobId, Counted> started_;
    std::optional<Time> last_snapshot_;
    double powered_cores_ = 0; // cloud cores powered on as of the last snapshot
    std::optional<SpendView> last_spend_;
};

} // namespace burst

#pragma once
// A hiring policy: pure decision logic shared by burstd and burstsim.  It gets
// the whole state and the time, returns a Decision, and may learn from
// finished jobs.  No I/O, no clock reads: the same inputs give the same output.

#include "model/clock.hpp"
#include "model/cluster_state.hpp"
#include "model/job.hpp"
#include "policy/decision.hpp"
#include "policy/site/site_activity.hpp"

#include <string_view>

namespace burst {

class Policy {
public:
    virtual ~Policy() = default;
    virtual std::string_view name() const = 0;
    virtual Decision decide(const ClusterState& state, const Clock& clock) = 0;
    // A job finished: update runtime/resource models.  Default: learns nothing.
    virtual void observe(const JobEnd&) {}
    // False where decide() would return a decision with nothing in it and
    // change nothing it reads later, so that the decision cycle need not ask
    // it: a policy that acts only for waiting jobs has nothing to do while
    // none waits.  A policy that hires ahead of demand, or whose memory
    // advances with every decision, keeps the default.
    virtual bool wants_decision(const SiteActivity&) const { return true; }
    // Whether anyone reads the notes of its decisions: burstd logs them and
    // shows the last in `burstctl status`, a replay reads none.  A policy may
    // then leave out those that cost to word.  Default: read.
    virtual void set_notes_read(bool read) { notes_read_ = read; }

protected:
    bool notes_read() const { return notes_read_; }

private:
    bool notes_read_ = true;
};

} // namespace burst

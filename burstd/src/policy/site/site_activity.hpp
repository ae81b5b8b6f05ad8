#pragma once
// What a decision cycle finds going on at a site, for the policies that act
// only on part of it (Policy::wants_decision).  Most cycles of a site that
// bursts now and then find no job waiting (on the shipped traces, 50-98% of
// them) and many no cloud node on either.  Each answer is worked out the
// first time it is asked, so that a chain of policies that ask nothing
// costs nothing.

#include "model/cluster_state.hpp"

#include <optional>

namespace burst {

class SiteActivity {
public:
    explicit SiteActivity(const ClusterState& state) : state_(state) {}

    // A job pending and free to start (held jobs and jobs awaiting a
    // dependency are nobody's demand).
    bool jobs_waiting() const;
    // A CLOUD node powered on, booting or powering down, or an instance
    // requested, launching, running or terminating.
    bool cloud_on() const;

private:
    const ClusterState& state_;
    mutable std::optional<bool> jobs_waiting_;
    mutable std::optional<bool> cloud_on_;
};

} // namespace burst

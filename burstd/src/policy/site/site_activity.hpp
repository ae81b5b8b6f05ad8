#pragma once
// What a decision cycle finds going on at a site, for the policies that act
// only on part of it (Policy::wants_decision).  Most cycles of a site that
// bursts now and then find no job waiting (on the shipped traces, 50-98% of
// them) and many no cloud node on either.

#include "model/cluster_state.hpp"

namespace burst {

struct SiteActivity {
    // A job pending and free to start (held jobs and jobs awaiting a
    // dependency are nobody's demand).
    bool jobs_waiting = false;
    // A CLOUD node powered on, booting or powering down, or an instance
    // requested, launching, running or terminating.
    bool cloud_on = false;
};

SiteActivity site_activity(const ClusterState& state);

} // namespace burst

#pragma once
// The one word a user sees for a pending job without burstctl: the why:
// word burstd keeps in the job's AdminComment (scontrol show job,
// squeue -O AdminComment, sacct -o AdminComment), from the last decision
// cycle.  burstctl explain gives the numbers behind it.
//
//   cloud:<group>     it may start on the group's nodes (routed there)
//   budget            a link routed it and a Budget= line kept it local
//   local:starts-now  a link expects it to start on local nodes now
//   local:cheaper     a link priced it: waiting costs less than bursting
//   local:no-group    a link priced it and no node group can take it
//   (no word)         no link said anything about it, or --burst=never
//
// A word is sent only when it differs from what the job shows (the snapshot
// carries each job's why: word), one job update each, at most
// kMaxWhyUpdates per cycle (the rest follow in the next cycles): a restart
// of burstd resends nothing, and a word someone else changed is put right.
// A job that leaves the queue keeps its last word.

#include "app/logger.hpp"
#include "model/job.hpp"
#include "model/node_group.hpp"
#include "model/snapshot.hpp"
#include "policy/cycle/decision_cycle.hpp"
#include "policy/site/site_view.hpp"
#include "slurm/slurm_actuator.hpp"

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

namespace burst {

// Pending job -> its word, for the jobs that have one.  `snapshot` is the
// state after the cycle applied its actions.
std::unordered_map<JobId, std::string> job_whys(const CycleOutcome& outcome, const Snapshot& snapshot,
                                                const std::vector<NodeGroup>& groups);

class JobWhyPublisher {
public:
    static constexpr std::size_t kMaxWhyUpdates = 200;

    // Sends the words that differ from what the pending jobs of `snapshot`
    // show, at `now`; returns how many were sent.
    std::size_t publish(const std::unordered_map<JobId, std::string>& whys, const Snapshot& snapshot, Time now,
                        SlurmActuator& actuator, Logger& log);

private:
    struct Sent {
        std::string word;
        Time at = 0;
    };
    // Words sent that a snapshot taken before them cannot show yet.
    std::unordered_map<JobId, Sent> sent_;
};

} // namespace burst

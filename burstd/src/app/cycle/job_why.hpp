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
// A word is sent only when it changes, one job update each, at most
// kMaxWhyUpdates per cycle (the rest follow in the next cycles); a job that
// leaves the queue keeps its last word, as a record of why it ran where.

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

    // Sends the words that differ from what the jobs show; returns how many
    // were sent.  Jobs no longer pending are forgotten.
    std::size_t publish(const std::unordered_map<JobId, std::string>& whys, const Snapshot& snapshot,
                        SlurmActuator& actuator, Logger& log);

private:
    std::unordered_map<JobId, std::string> shown_; // what each pending job's AdminComment says
};

} // namespace burst

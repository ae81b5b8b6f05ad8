#pragma once
// Scavenger work never costs money.  Slurm resumes a powered-down CLOUD
// node for any job that may run there, scavenger jobs too, so burstd looks
// at what each node it is asked to resume is for (SLURM_RESUME_FILE) and
// launches no instance for a node that only scavenger jobs want: the node
// goes back to Slurm and the jobs are requeued (InstanceManager::refuse).
// Each cycle also takes the node groups' partitions away from waiting
// scavenger jobs that have others (PolicyCycle), so that they seldom get
// that far.

#include "model/job.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace burst {

struct ResumeSplit {
    std::vector<std::string> launch;
    std::vector<std::string> refuse;
};

// `is_scavenger` answers for one job from Slurm's record of it (asked once
// per job); a node no job is listed for (an early launch, a manual power
// up) is launched.
ResumeSplit split_scavenger_resumes(const std::vector<std::string>& nodes,
                                    const std::map<JobId, std::vector<std::string>>& jobs,
                                    const std::function<bool(JobId)>& is_scavenger);

} // namespace burst

#pragma once
// The job ids a Slurm dependency string names, as the exporter forwards
// job_details->dependency: "afterok:12:13,afterany:14_*(unfulfilled)",
// with '?' separating alternatives.  Policies use them as the edges of the
// queue's dependency graph; a named job that is no longer in the snapshot
// has finished.

#include "model/job.hpp"

#include <string>
#include <vector>

namespace burst {

// Every job id the string names, in order, duplicates removed.  Items that
// name no job (singleton, malformed words) contribute nothing.
std::vector<JobId> dependency_job_ids(const std::string& dependency);
// The ids of the items that wait for the named jobs to end (afterok,
// afterany, aftercorr): the jobs the dependent one follows, not those it
// runs beside (after: once they start) or instead of (afternotok).
std::vector<JobId> ended_dependency_job_ids(const std::string& dependency);

} // namespace burst

#pragma once
// A workload of workflows: copies of the given workflows arriving as a
// Poisson process, each copy's tasks becoming jobs with dependencies (the
// PFA paper's workload model).  Deterministic for a seed.

#include "sim/trace/trace.hpp"
#include "sim/workload/workflow.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace burst {

struct WorkflowArrivals {
    double rate_per_hour = 6;   // mean arrivals per hour (exponential gaps)
    std::uint32_t count = 0;    // workflows to generate; 0 = one per given workflow
    std::uint64_t seed = 1;
    // Arrivals take these accounts in turn ("users" of the paper); the user
    // name is the account's.
    std::vector<std::string> accounts{"wf"};
};

// Every arrival draws one of `workflows` uniformly.  Job ids count from 1 in
// arrival then task order; a job's category is "<workflow>:<task name>", its
// workflow "<k>:<workflow>" for the k-th arrival (from 1).  The first
// arrival is at time 0.  Throws WorkflowError when `workflows` is empty or
// an option is out of range.
Trace workflow_trace(const std::vector<Workflow>& workflows, const WorkflowArrivals& options);

} // namespace burst

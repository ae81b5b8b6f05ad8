#pragma once
// A workflow as burstsim replays it: tasks with runtimes, cores and the
// tasks they wait for.  Loaded from WfCommons JSON or Pegasus DAX files;
// many copies of it arrive as jobs with dependencies (workflow_arrivals).

#include "model/clock.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace burst {

// A workflow file that cannot be used; the message names the file and the
// line or element at fault and what was expected.
class WorkflowError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct WorkflowTask {
    std::string id;   // as the file names it
    std::string name; // the program or transformation (categories are per name)
    Seconds runtime = 0;
    std::uint32_t cores = 1;
    std::vector<std::size_t> parents; // indices into Workflow::tasks
    std::string origin;               // where the file declares it, for errors: "line 12", "workflow.tasks[3]"
};

struct Workflow {
    std::string name;
    std::string source; // the file it came from
    std::vector<WorkflowTask> tasks;
};

// Throws WorkflowError (naming `w.source`) when the workflow has no tasks or
// its dependencies form a cycle (naming the tasks on one).
void check_workflow(const Workflow& w);

// The longest chain of runtimes through the dependencies: the makespan on
// unlimited reference nodes, the denominator of workflow slowdown.
Seconds critical_path(const Workflow& w);

} // namespace burst

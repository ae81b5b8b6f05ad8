#pragma once
// Reads a workflow file: WfCommons JSON for names ending in .json, Pegasus
// DAX for .xml or .dax.

#include "sim/workload/workflow.hpp"

#include <string>

namespace burst {

// Throws WorkflowError when the file cannot be read, its kind is not known
// from its name, or it is not a valid workflow.
Workflow load_workflow(const std::string& path);

} // namespace burst

#pragma once
// WfCommons workflow instances (WfFormat JSON, https://wfcommons.org).
// Schema 1.5: workflow.specification.tasks give ids and parents (or
// children), workflow.execution.tasks give runtimeInSeconds and, optionally,
// coreCount (default 1).  Older schemas: workflow.tasks with name/id,
// parents, runtimeInSeconds or runtime, and cores.

#include "sim/workload/workflow.hpp"

#include <string>

namespace burst {

// `source` names the document in error messages.  Throws WorkflowError
// naming the line (JSON syntax) or the element path and what was expected.
Workflow parse_wfcommons(const std::string& text, const std::string& source);

} // namespace burst

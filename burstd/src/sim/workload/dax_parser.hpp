#pragma once
// Pegasus DAX workflows (XML, schema 2.1 to 3.x): <job id= name= runtime=>
// elements (runtime may instead be a pegasus "runtime" profile, cores a
// pegasus "cores" profile, default 1) and <child ref=><parent ref=/></child>
// edges.

#include "sim/workload/workflow.hpp"

#include <string>

namespace burst {

// `source` names the document in error messages.  Throws WorkflowError
// naming the line and element at fault and what was expected.
Workflow parse_dax(const std::string& text, const std::string& source);

} // namespace burst

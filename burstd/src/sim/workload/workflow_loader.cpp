#include "sim/workload/workflow_loader.hpp"

#include "common/text.hpp"
#include "sim/workload/dax_parser.hpp"
#include "sim/workload/wfcommons_parser.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace burst {

Workflow load_workflow(const std::string& path)
{
    const bool json = ends_with(path, ".json");
    const bool dax = ends_with(path, ".xml") || ends_with(path, ".dax");
    if (!json && !dax)
        throw WorkflowError(path + ": unknown workflow format (expected a name ending in .json for WfCommons, "
                                   ".xml or .dax for Pegasus DAX)");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw WorkflowError(path + ": cannot open: " + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
        throw WorkflowError(path + ": read error");
    return json ? parse_wfcommons(text.str(), path) : parse_dax(text.str(), path);
}

} // namespace burst

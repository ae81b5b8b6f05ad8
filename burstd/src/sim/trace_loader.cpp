#include "sim/trace_loader.hpp"

#include "sim/sacct_parser.hpp"
#include "sim/swf_parser.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace burst {

Trace load_trace(const std::string& path, const std::string& format)
{
    std::string chosen = format;
    if (chosen == "auto")
        chosen = path.size() >= 4 && path.compare(path.size() - 4, 4, ".swf") == 0 ? "swf" : "sacct";
    if (chosen != "swf" && chosen != "sacct")
        throw TraceError("unknown trace format '" + format + "' (known: swf, sacct, auto)");
    std::ifstream in(path);
    if (!in)
        throw TraceError(path + ": cannot open: " + std::strerror(errno));
    Trace trace = chosen == "swf" ? parse_swf(in, path) : parse_sacct(in, path);
    if (in.bad())
        throw TraceError(path + ": read error");
    return trace;
}

} // namespace burst

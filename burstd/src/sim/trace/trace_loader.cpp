#include "sim/trace/trace_loader.hpp"

#include "sim/trace/sacct_parser.hpp"
#include "sim/trace/swf_parser.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace burst {

namespace {

// sacct's first non-blank line is its '|'-separated header; an SWF file
// starts with ';' comments (free text, which may hold a '|') or
// whitespace-separated numbers.  The content decides, not the name: an SWF
// trace saved as .txt is still SWF.
std::string sniff_format(std::istream& in)
{
    std::string line, chosen = "swf";
    while (std::getline(in, line))
        if (const auto first = line.find_first_not_of(" \t\r"); first != std::string::npos) {
            if (line[first] != ';' && line.find('|') != std::string::npos)
                chosen = "sacct";
            break;
        }
    in.clear();
    in.seekg(0);
    return chosen;
}

} // namespace

Trace load_trace(const std::string& path, const std::string& format, std::size_t kept_problems,
                 bool skip_malformed)
{
    if (format != "swf" && format != "sacct" && format != "auto")
        throw TraceError("unknown trace format '" + format + "' (known: swf, sacct, auto)");
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw TraceError(path + ": is a directory; give a trace file");
    std::ifstream in(path);
    if (!in)
        throw TraceError(path + ": cannot open: " + std::strerror(errno));
    const std::string chosen = format == "auto" ? sniff_format(in) : format;
    if (!in)
        throw TraceError(path + ": cannot rewind after guessing its format; give --format");
    Trace trace = chosen == "swf" ? parse_swf(in, path, kept_problems)
                                  : parse_sacct(in, path, kept_problems);
    if (in.bad())
        throw TraceError(path + ": read error");
    const TraceReport& r = trace.report;
    const std::size_t read = r.jobs + r.unusable;
    if (!skip_malformed && r.malformed > read)
        throw TraceError(path + ": " + std::to_string(r.malformed) + " of its " + std::to_string(r.malformed + read) +
                         " records are malformed (" + chosen + " format" + (format == "auto" ? ", guessed" : "") +
                         "); is it " + (chosen == "swf" ? "an SWF" : "a sacct") + " file?" +
                         (r.problems.empty() ? ""
                                             : " First: " + path + ":" + std::to_string(r.problems.front().line) + ": " +
                                                   r.problems.front().message) +
                         "\n--skip-malformed replays the " + std::to_string(read) + " that could be read");
    return trace;
}

} // namespace burst

#include "sim/trace/trace.hpp"

#include <sstream>

namespace burst {

std::size_t give_default_time(std::vector<TraceJob>& jobs, Seconds limit)
{
    std::size_t given = 0;
    for (auto& job : jobs)
        if (job.time_limit <= 0) {
            job.time_limit = limit;
            ++given;
        }
    return given;
}

void TraceReport::keep(std::size_t line, std::string message)
{
    if (problems.size() < kept_limit)
        problems.push_back(TraceProblem{line, std::move(message)});
}

void TraceReport::malformed_line(std::size_t line, std::string message)
{
    ++malformed;
    keep(line, std::move(message));
}

void TraceReport::unusable_record(std::size_t line, std::string message)
{
    ++unusable;
    keep(line, std::move(message));
}

void TraceReport::doubtful_record(std::size_t line, std::string message)
{
    ++doubtful;
    keep(line, std::move(message) + " (replayed: the simulator does not use it)");
}

void TraceReport::unterminated_line(std::size_t line)
{
    // A file cut inside its last field leaves a line that may still parse
    // ("1" of "12", "COMPL" of "COMPLETED" once every field is there), so
    // the missing newline is the only sign.  sacct and the archive's
    // converters end every line: a hand-made file without the final newline
    // loses its last record, reported here, rather than risk replaying a
    // wrong one.
    malformed_line(line, "no newline at end of file: truncated? (not read; if the line is complete, end the file "
                         "with a newline)");
}

std::string TraceReport::summary() const
{
    std::ostringstream out;
    out << source << ": " << jobs << " jobs from " << lines << " lines (" << comment_lines
        << " comments";
    if (skipped_steps)
        out << ", " << skipped_steps << " job steps";
    out << "); " << malformed << " malformed, " << unusable << " unusable";
    if (doubtful)
        out << ", " << doubtful << " with a field out of range that the simulator does not use";
    for (const auto& p : problems)
        out << "\n  " << source << ":" << p.line << ": " << p.message;
    if (problem_count() > problems.size())
        out << "\n  ... and " << problem_count() - problems.size() << " more";
    return out.str();
}

} // namespace burst

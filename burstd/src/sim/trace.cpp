#include "sim/trace.hpp"

#include <sstream>

namespace burst {

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

std::string TraceReport::summary() const
{
    std::ostringstream out;
    out << source << ": " << jobs << " jobs from " << lines << " lines (" << comment_lines
        << " comments";
    if (skipped_steps)
        out << ", " << skipped_steps << " job steps";
    out << "); " << malformed << " malformed, " << unusable << " unusable";
    for (const auto& p : problems)
        out << "\n  " << source << ":" << p.line << ": " << p.message;
    if (problem_count() > problems.size())
        out << "\n  ... and " << problem_count() - problems.size() << " more";
    return out.str();
}

} // namespace burst

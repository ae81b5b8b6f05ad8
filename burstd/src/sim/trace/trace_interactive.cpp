#include "sim/trace/trace_interactive.hpp"

namespace burst {

TraceInteractiveReport give_interactive(std::vector<TraceJob>& jobs, double share)
{
    TraceInteractiveReport report;
    for (TraceJob& job : jobs) {
        const bool session_shaped = job.cpus <= kInteractiveMaxCpus && job.true_runtime() <= kInteractiveMaxRuntime &&
                                    job.parents.empty() && !(job.scaling && job.scaling->automatic);
        if (!session_shaped)
            continue;
        ++report.candidates;
        // A multiplicative hash (by xxHash32's second prime) spreads
        // consecutive ids over [0, 1).
        const double pick = double(std::uint32_t(job.id * 2246822519u)) / 4294967296.0;
        if (pick < share) {
            job.interactive = true;
            ++report.interactive;
        }
    }
    return report;
}

} // namespace burst

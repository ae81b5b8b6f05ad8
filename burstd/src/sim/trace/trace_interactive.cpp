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
        if (id_spread(job.id, 2246822519u) < share) { // xxHash32's second prime
            job.interactive = true;
            ++report.interactive;
        }
    }
    return report;
}

} // namespace burst

#pragma once
// A workload trace as burstsim replays it: one record per job, plus a report
// of every line that could not be used and why.  Parsers never drop a line
// silently: each rejected line is counted, and the first few are kept with
// their line numbers so a sysadmin can find them.

#include "model/clock.hpp"
#include "model/job.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace burst {

// Runtimes (and an SWF trace's submit offsets) beyond this are rejected as
// corrupt: no real job runs ten years, and the simulator steps every
// decision cycle while work remains, so 1e12 s would never finish.
constexpr Seconds kMaxTraceSeconds = 10 * 365 * 86400.0;

// A trace that cannot be read at all (no file, no usable sacct header); the
// message names the file, the line when there is one, and what was wrong.
class TraceError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// How a job's run time scales with its CPUs per task (Smowton et al.'s
// T(t) = E·(c/t + 1 − c)), for a trace that knows it: a generated workload,
// or a site's trace given a c per category (trace_scaling.hpp).
struct TraceScaling {
    double c = 0;              // share of the single-threaded time that scales, in [0, 1]
    std::uint32_t threads = 1; // CPUs per task the trace's runtime is at; cpus = tasks × threads
    bool automatic = false;    // --threads=auto: the thread policy may change the count
    double size = 0;           // its size hint (--burst-size=); 0 = none

    // How much longer a run with `t` CPUs per task takes than one with `threads`.
    double stretch(std::uint32_t t) const { return (c / t + 1 - c) / (c / threads + 1 - c); }
};

// Where a job id falls in [0, 1) under a multiplicative hash by this odd
// multiplier: consecutive ids spread evenly and two multipliers pick
// independently, so a share of a trace's jobs picked by id is the same
// share in every run.
inline double id_spread(JobId id, std::uint32_t multiplier)
{
    return double(std::uint32_t(id * multiplier)) / 4294967296.0;
}

struct TraceJob {
    JobId id = 0;
    Time submit = 0;
    Seconds runtime = 0;
    Seconds time_limit = 0; // 0 = the trace gives none
    std::uint32_t cpus = 1;
    std::string user;
    std::string account;
    std::string partition;
    std::string name;
    JobCategory category; // runtime models are learned per category
    // Jobs that must end before this one may start (a workflow's edges);
    // Slurm's afterany dependencies.
    std::vector<JobId> parents;
    std::string workflow; // workflow instance the job is a task of; "" = none
    // When Slurm let it start, if later than its submission: a --begin
    // time or a hold (sacct's Eligible).  Until then it is pending with
    // reason BeginTime, no demand, and keeps its submission's place.
    std::optional<Time> eligible;
    std::optional<TraceScaling> scaling; // none: it runs with what it asked for
    // An interactive allocation (salloc, srun outside one): job_submit/burst
    // puts it in InteractiveQOS, ahead of every batch job, and it may take
    // the cores burstd's Interactive= holds keep.
    bool interactive = false;

    // When it may start at the earliest (its parents' ends aside).
    Time release() const { return eligible ? std::max(submit, *eligible) : submit; }

    // How long it really runs in the replay: Slurm ends it at its limit.
    Seconds true_runtime() const
    {
        return std::max<Seconds>(0, time_limit > 0 ? std::min(runtime, time_limit) : runtime);
    }
};

// Gives every job the trace gives no time limit `limit`, as Slurm gives a
// job submitted without one its partition's DefaultTime (or MaxTime) and
// ends it there; returns how many jobs it gave it to.
std::size_t give_default_time(std::vector<TraceJob>& jobs, Seconds limit);

struct TraceProblem {
    std::size_t line = 0;
    std::string message;
};

struct TraceReport {
    // Only this many problems keep their text by default; all of them are counted.
    static constexpr std::size_t kKeptProblems = 20;
    std::size_t kept_limit = kKeptProblems;

    std::string source;
    std::size_t lines = 0;       // every line read, comments included
    std::size_t comment_lines = 0;
    std::size_t jobs = 0;        // records turned into TraceJobs
    std::size_t malformed = 0;   // lines that are not a valid record
    std::size_t unusable = 0;    // valid records that describe no runnable job
    std::size_t doubtful = 0;    // replayed, but a field they do not use is out of its range
    std::size_t skipped_steps = 0; // sacct job steps (expected, not a problem)
    std::vector<TraceProblem> problems;

    // Header facts when the format carries them (SWF `;` comments); 0 = absent.
    std::uint64_t max_nodes = 0;
    std::uint64_t max_procs = 0;
    Time unix_start_time = 0;

    void malformed_line(std::size_t line, std::string message);
    void unusable_record(std::size_t line, std::string message);
    void doubtful_record(std::size_t line, std::string message);
    // A last line with text but no newline: malformed, and not read.
    void unterminated_line(std::size_t line);
    std::size_t problem_count() const { return malformed + unusable + doubtful; }
    // "KTH.swf: 28476 jobs from 28500 lines; 0 malformed, 0 unusable" (and
    // the doubtful count when there are any) plus the kept problems.
    std::string summary() const;

private:
    void keep(std::size_t line, std::string message);
};

struct Trace {
    std::vector<TraceJob> jobs;
    TraceReport report;
};

} // namespace burst

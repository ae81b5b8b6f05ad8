#pragma once
// Discrete-event replay of a trace on a simulated Slurm site, driving a real
// Policy exactly as burstd does: each decision cycle it builds a
// ClusterState, calls Policy::decide, and applies the Decision the way
// burstd's actuator plus Slurm would.
//
// Jobs with parents (workflow tasks) are shown to the policy from their
// submission as pending with reason Dependency and their parents in the
// dependency field, as Slurm shows afterany dependencies; they join the
// queue, in the order they become eligible, when the last parent ends.
//
// Site model: local cores scheduled FCFS, or by Slurm's multifactor priority
// with fair-share (SimConfig::priority, sim/priority/priority_model.hpp), with EASY
// backfill (reservation for the queue head from time limits; without a limit
// the trace runtime is the estimate).  A job routed to a node group may also run there: Slurm's power
// saving resumes powered-down nodes of the group for it (boot time drawn
// from the group's boot time and the jitter), a job on booting nodes starts
// when they are all up, and runs runtime / speed.  Idle CLOUD nodes power
// down after SuspendTime.  Instances are billed from launch to power-down,
// at least min_billed, per second or per started hour.  Instances of a spot
// group are interrupted as a Poisson process of interruptions_per_hour per
// instance-hour: their jobs are requeued (progress lost, queue position
// kept) and the node retired until hired again.
//
// Interactive jobs (TraceJob::interactive) are queued ahead of every batch
// job; with SimConfig::interactive_cores the local pool keeps burstd's
// Interactive= holds for them, kept at every decision cycle after the chain
// (local_scheduler.hpp).
//
// Launches can fail for capacity (SimConfig::shortages) and each group's
// GroupHealth backs off as in burstd (GroupLaunches): a failed or refused
// launch leaves the node down and requeues the jobs allocated to it, and
// policies see the breakers' hire limits in ClusterState::hire_limits.
//
// With budget lines (SimConfig::budgets) each decision passes burstd's
// BudgetCap, fed as burstd feeds it: spend booked every decision cycle by
// burstd's SpendTracker (instance uptime at the group's price, split over the
// accounts of the jobs on the node, "" for the rest), one tracker per
// interval length.  Booking goes on past the last job until the last
// instance is down.
//
// Deterministic: same config, trace and policy → same result.  No wall clock.

#include "model/job.hpp"
#include "model/run_metrics.hpp"
#include "policy/cycle/decision_cycle.hpp"
#include "policy/policy.hpp"
#include "sim/engine/group_launches.hpp"
#include "sim/engine/sim_config.hpp"
#include "sim/trace/trace.hpp"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace burst {

class SimConfigError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

struct JobOutcome {
    JobId id = 0;
    std::string account;
    std::uint32_t cpus = 0;
    Time submit = 0;
    Time eligible = 0; // its last parent ended (= submit without parents)
    Time start = 0; // began running (after any cloud boot)
    Time end = 0;
    int group = -1; // index into SimConfig::groups; -1 = local
    bool interactive = false;
};

// One cloud instance's life: powered up at `launched`, down at `down`,
// billed until `billed_until` (billing_boundary.hpp; 0 = until `down`).
struct InstanceSpan {
    int group = 0;
    std::uint32_t cpus = 0;
    double price_per_hour = 0;
    Time launched = 0;
    Time down = 0;
    Time ready = 0; // booted (= down when powered down while booting)
    Time billed_until = 0;
};

// One decision cycle's view for plots: demand = cores of eligible,
// unfinished jobs; supply = local cores + cores of powered-on cloud nodes.
struct TimelineSample {
    Time time = 0;
    std::uint64_t demand = 0;
    std::uint64_t supply = 0;
    std::uint32_t cloud_nodes = 0; // powered on (booting or up)
};

// What SpendTracker had booked in one budget interval at its last booking
// there (the uptime between that booking and the interval's end is booked
// nowhere, as in burstd).
struct BookedInterval {
    Seconds interval = 0;
    Time start = 0;
    std::map<std::string, double> accounts; // "" = capacity no job used
};

struct SimResult {
    std::vector<JobOutcome> jobs;
    std::vector<std::string> group_names;
    double cloud_cost = 0;
    // What each account's cloud core-seconds cost at the group's per-core
    // price; the rest of cloud_cost (boot, idle, minimum and hourly billing)
    // is attributed to nobody.
    std::map<std::string, double> account_cost;
    double instance_seconds = 0;
    std::uint64_t instances_launched = 0;
    std::uint64_t decisions = 0;
    std::uint64_t actions_applied = 0;
    std::uint64_t actions_rejected = 0; // unknown job/node/group, job no longer pending
    std::uint64_t threads_set = 0;      // pending --threads=auto jobs given another CPUs per task
    std::uint64_t threads_advised = 0;  // auto jobs that took the thread policy's advice at submission
    std::uint64_t hire_shortfall = 0;   // nodes asked for beyond what was powered down
    std::uint64_t jobs_too_wide = 0;    // more cores than the local site: not replayed
    std::uint64_t runtimes_capped = 0;  // ran past their limit in the trace: killed at it
    // Cloud runs that slower nodes stretched past the job's limit: Slurm
    // ends them there (TIMEOUT), unfinished.
    std::uint64_t cloud_runs_cut = 0;
    std::uint64_t interruptions = 0;    // spot instances taken back
    std::uint64_t requeued_jobs = 0;    // jobs requeued by those interruptions (a job may count twice)
    double lost_core_seconds = 0;       // cores × time run before an interruption threw it away
    std::uint64_t launch_requeues = 0;  // jobs requeued by failed or refused launches (a job may count twice)
    std::vector<GroupBackoff> group_backoff; // per group, as group_names
    // Cores × time cloud nodes were up with nothing allocated, and the part
    // of it that ended in a power-down (SuspendTime or a release) rather
    // than with new work.
    double idle_core_seconds = 0;
    double idle_before_down_core_seconds = 0;
    // Cores × time Interactive= holds kept on the local pool, until the
    // last job ended.
    double held_core_seconds = 0;
    // With SimConfig::scavenger_run: cores × time the warm pool held nodes
    // idle, of the scavenger jobs that ran to their end there, and of the
    // runs cut short.
    double warm_held_core_seconds = 0;
    double scavenger_done_core_seconds = 0;
    double scavenger_lost_core_seconds = 0;
    Time first_submit = 0;
    std::vector<InstanceSpan> instances;
    // Demand = cores of submitted, unfinished jobs (running or pending);
    // supply = local cores + cores of powered-on cloud nodes.
    ProvisioningSamples provisioning;
    std::vector<TimelineSample> timeline; // with SimConfig::record_timeline
    // With budget lines: the lines, what the cap dropped per action kind
    // (burstd's over_budget outcome), how many notes it wrote and the first
    // of them, and the spend booked per interval (interval length, then time).
    std::vector<BudgetLimit> budget_limits;
    std::map<std::string, std::uint64_t> over_budget;
    std::uint64_t budget_notes = 0;
    std::vector<std::string> first_budget_notes;
    std::vector<BookedInterval> booked;
};

// Throws SimConfigError for an unusable site (no local cores, bad group) or
// a trace with duplicate job ids, a parent that is not in the trace, or a
// dependency cycle.  While it runs, the cycle's policies are told that nobody
// reads their notes (Policy::set_notes_read).
SimResult simulate(const SimConfig& config, const std::vector<TraceJob>& trace, DecisionCycle& cycle);
// One policy as a chain of one.
SimResult simulate(const SimConfig& config, const std::vector<TraceJob>& trace, Policy& policy);

} // namespace burst

#pragma once
// The changes burstd makes to Slurm.  Slurm stays the scheduler of record:
// burstd only widens where a pending job may run, reshapes its CPUs, and
// drives power saving.  Every call carries the reason that is logged with it,
// and returns an error text instead of throwing (Slurm saying no is routine).

#include "model/job.hpp"
#include "slurm/job_cpu_change.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace burst {

enum class PowerAction {
    Up,        // POWER_UP: resume now (ResumeProgram runs)
    Down,      // POWER_DOWN: once idle
    DownForce, // POWER_DOWN_FORCE: now, requeueing its jobs; clears DOWN after a failed resume
    DownAsap,  // POWER_DOWN_ASAP: drain, then power down
};

std::string_view to_string(PowerAction action);

// The longest why: value job_submit/burst accepts (its BURST_WHY_MAX).
constexpr std::size_t kMaxWhy = 48;

// A launched CLOUD node's instance, as Slurm is told of it.
struct NodeInstance {
    std::string node;
    std::string address;       // NodeAddr; "" keeps Slurm's
    std::string hostname;      // NodeHostname; "" keeps Slurm's
    std::string instance_id;   // the provider's id for it
    std::string instance_type; // "" when the launch named none
};

// A job that does nothing until burstd cancels it or a job of a QOS that
// may preempt it does: a warm pool's placeholder holds one whole node of a
// partition at the lowest priority, an interactive hold holds `cpus` of
// its local nodes for interactive jobs, ahead of every other job.
struct PlaceholderJob {
    std::string partition;
    std::string qos;  // PlaceholderQOS= or InteractiveHoldQOS=
    std::string name; // how burstd tells its own jobs from any other job of the QOS
    std::uint32_t cpus = 0; // 0: a whole node (--exclusive) at the lowest priority
    std::vector<std::string> excluded_nodes; // nodes it must not run on
};

// The priority of an interactive hold: above what any priority plugin
// gives a job, so that a hold takes the next cores to come free.
constexpr std::uint32_t kInteractiveHoldPriority = 0xFFFF0000u;

// Where a pending job may run, changed in one update: its partitions, the
// one node it must run on ("" = any: ReqNodeList cleared), a hold
// (priority 0, as `scontrol hold`) or its release (as `scontrol release`),
// and a BeginTime in the future -- a requeued batch job's -- reset to now.
struct JobPlacement {
    enum class Hold { Unchanged, Hold, Release };

    JobId job = 0;
    std::vector<std::string> partitions;
    std::string node;
    Hold hold = Hold::Unchanged;
    bool start_now = false;
};

struct ActuatorError {
    std::string message; // empty = success
    // Slurm will never requeue this job (--no-requeue, JobRequeue=0, not a
    // batch job), as opposed to a refusal that may pass.
    bool never_requeueable = false;

    explicit operator bool() const { return !message.empty(); }
};

class SlurmActuator {
public:
    virtual ~SlurmActuator() = default;
    // Sets the job's whole partition list, e.g. {"local", "cloud"}.
    virtual ActuatorError set_job_partitions(JobId job, const std::vector<std::string>& partitions,
                                             std::string_view reason) = 0;
    virtual ActuatorError set_job_cpus(const JobCpuChange& change, std::string_view reason) = 0;
    // The short reason a user sees for a pending job: the why: word of its
    // AdminComment, which job_submit/burst replaces while keeping every
    // other word ("" removes it).
    virtual ActuatorError set_job_why(JobId job, std::string_view why) = 0;
    // Submits the placeholder; `id` receives its job id.
    virtual ActuatorError submit_placeholder(const PlaceholderJob& job, std::string_view reason, JobId& id) = 0;
    // Cancels a job as scancel does (pending or running).
    virtual ActuatorError cancel_job(JobId job, std::string_view reason) = 0;
    // Holds a pending job as `scontrol hold` does (JobHeldAdmin).
    virtual ActuatorError hold_job(JobId job, std::string_view reason) = 0;
    // Requeues a running batch job as `scontrol requeue` does; a job Slurm
    // never requeues is refused with never_requeueable set.
    virtual ActuatorError requeue_job(JobId job, std::string_view reason) = 0;
    // Moves a pending job as `placement` says, in one update.
    virtual ActuatorError place_job(const JobPlacement& placement, std::string_view reason) = 0;
    virtual ActuatorError power(const std::vector<std::string>& nodes, PowerAction action,
                                std::string_view reason) = 0;
    // Where slurmctld reaches a launched CLOUD node, and which instance it
    // is: Slurm 23.11 and later keep InstanceId and InstanceType on the node
    // (and slurmdbd, `sacctmgr show instance`) until it powers down; older
    // releases have neither, and get the address alone, if any.
    virtual ActuatorError set_node_instance(const NodeInstance& instance, std::string_view reason) = 0;
    // The node's instance is gone or never came: give the node and its jobs
    // back to Slurm.  Measured on 22.05: POWER_DOWN_FORCE alone leaves a job
    // whose slurmd vanished COMPLETING until SlurmdTimeout (the kill RPC
    // waits for a dead slurmd), and every requeued batch job gets a BeginTime
    // of now + the credential lifetime + 1 (AuthInfo cred_expire, 121 s by
    // default; job_mgr.c job_epilog_complete).  So: the jobs
    // running on it are noted, the node is set DOWN (requeue without a kill
    // RPC), then POWER_DOWN_FORCE (back to idle~ after SuspendTimeout, free
    // for Slurm to resume), then the noted jobs' BeginTime is reset to now,
    // and so is that of `meant_for` (the jobs Slurm resumed the node for: at
    // ResumeTimeout Slurm requeues them itself, before burstd hears of it).
    // `released` receives the ids whose BeginTime was reset.
    virtual ActuatorError hand_back_node(const std::string& node, std::string_view reason,
                                         const std::vector<JobId>& meant_for, std::vector<JobId>& released) = 0;
    // State=DRAIN with `reason` (what sinfo -R shows): Slurm neither resumes
    // nor allocates the nodes until the drain is cleared.
    virtual ActuatorError drain(const std::vector<std::string>& nodes, std::string_view reason) = 0;
    // State=UNDRAIN on those of `nodes` that are drained with a reason that
    // starts with `reason_prefix`, as Slurm has it right now: a drain an
    // administrator set (or set again over burstd's) is never cleared.
    // `cleared` receives the nodes undrained; on an error nothing was.
    virtual ActuatorError undrain_own(const std::vector<std::string>& nodes, std::string_view reason_prefix,
                                      std::vector<std::string>& cleared) = 0;
};

} // namespace burst

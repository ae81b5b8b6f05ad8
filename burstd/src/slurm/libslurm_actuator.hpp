#pragma once
// SlurmActuator over libslurm's RPCs (slurm_update_job, slurm_update_node,
// slurm_load_jobs when a node is handed back, slurm_load_node before an
// undrain, slurm_submit_batch_job and slurm_kill_job for placeholders):
// no scontrol process per change, and Slurm's own error text back.

#include "slurm/slurm_actuator.hpp"

#include <chrono>
#include <functional>
#include <mutex>
#include <string>

namespace burst {

// One line per change, e.g. to burstd's log.
using ActuatorLog = std::function<void(const std::string& line)>;

class LibslurmActuator final : public SlurmActuator {
public:
    // `slurm_conf` empty = libslurm's default ($SLURM_CONF, then /etc/slurm).
    // libslurm's configuration is process-wide: one actuator per process.
    // Throws std::invalid_argument when that slurm.conf is unreadable.
    LibslurmActuator(const std::string& slurm_conf, ActuatorLog log);
    ~LibslurmActuator() override;
    LibslurmActuator(const LibslurmActuator&) = delete;
    LibslurmActuator& operator=(const LibslurmActuator&) = delete;

    ActuatorError set_job_partitions(JobId job, const std::vector<std::string>& partitions,
                                     std::string_view reason) override;
    ActuatorError set_job_cpus(const JobCpuChange& change, std::string_view reason) override;
    ActuatorError set_job_why(JobId job, std::string_view why) override;
    ActuatorError submit_placeholder(const PlaceholderJob& job, std::string_view reason, JobId& id) override;
    ActuatorError cancel_job(JobId job, std::string_view reason) override;
    ActuatorError hold_job(JobId job, std::string_view reason) override;
    ActuatorError requeue_job(JobId job, std::string_view reason) override;
    ActuatorError place_job(const JobPlacement& placement, std::string_view reason) override;
    ActuatorError power(const std::vector<std::string>& nodes, PowerAction action,
                        std::string_view reason) override;
    ActuatorError set_node_instance(const NodeInstance& instance, std::string_view reason) override;
    ActuatorError hand_back_node(const std::string& node, std::string_view reason,
                                 const std::vector<JobId>& meant_for, std::vector<JobId>& released) override;
    ActuatorError drain(const std::vector<std::string>& nodes, std::string_view reason) override;
    ActuatorError undrain_own(const std::vector<std::string>& nodes, std::string_view reason_prefix,
                              std::vector<std::string>& cleared) override;

private:
    ActuatorError outcome(int rc, const std::string& what, std::string_view reason);
    // Runs an update RPC (it asks for a state: the same twice is the same)
    // once more, 0.2 s later, when it did not reach slurmctld; not while an
    // earlier repeat failed in the last 30 s, so that an unreachable
    // slurmctld costs a cycle's many calls one timeout each, not more.
    int repeat_unsent(const std::function<int()>& rpc);
    ActuatorLog log_;
    std::mutex repeat_guard_;
    std::chrono::steady_clock::time_point no_repeat_until_{};
};

// Validation shared with tests: a partition or node word Slurm would parse as
// exactly one name.  Returns an error text, empty when fine.
std::string check_slurm_name(std::string_view kind, const std::string& name);

} // namespace burst

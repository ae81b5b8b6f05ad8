#pragma once
// A SlurmActuator that lets one caller at a time through to the one it wraps:
// the cycle (io thread) and provider workers both change Slurm, and
// libslurm's process-wide configuration is not something to race on.

#include "slurm/slurm_actuator.hpp"

#include <mutex>

namespace burst {

class LockedActuator final : public SlurmActuator {
public:
    explicit LockedActuator(SlurmActuator& inner) : inner_(inner) {}

    ActuatorError set_job_partitions(JobId job, const std::vector<std::string>& partitions,
                                     std::string_view reason) override
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return inner_.set_job_partitions(job, partitions, reason);
    }
    ActuatorError set_job_cpus(const JobCpuChange& change, std::string_view reason) override
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return inner_.set_job_cpus(change, reason);
    }
    ActuatorError set_job_why(JobId job, std::string_view why) override
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return inner_.set_job_why(job, why);
    }
    ActuatorError submit_placeholder(const PlaceholderJob& job, std::string_view reason, JobId& id) override
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return inner_.submit_placeholder(job, reason, id);
    }
    ActuatorError cancel_job(JobId job, std::string_view reason) override
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return inner_.cancel_job(job, reason);
    }
    ActuatorError hold_job(JobId job, std::string_view reason) override
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return inner_.hold_job(job, reason);
    }
    ActuatorError requeue_job(JobId job, std::string_view reason) override
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return inner_.requeue_job(job, reason);
    }
    ActuatorError place_job(const JobPlacement& placement, std::string_view reason) override
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return inner_.place_job(placement, reason);
    }
    ActuatorError power(const std::vector<std::string>& nodes, PowerAction action, std::string_view reason) override
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return inner_.power(nodes, action, reason);
    }
    ActuatorError set_node_instance(const NodeInstance& instance, std::string_view reason) override
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return inner_.set_node_instance(instance, reason);
    }

    ActuatorError hand_back_node(const std::string& node, std::string_view reason,
                                 const std::vector<JobId>& meant_for, std::vector<JobId>& released) override
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return inner_.hand_back_node(node, reason, meant_for, released);
    }
    ActuatorError drain(const std::vector<std::string>& nodes, std::string_view reason) override
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return inner_.drain(nodes, reason);
    }
    ActuatorError undrain_own(const std::vector<std::string>& nodes, std::string_view reason_prefix,
                              std::vector<std::string>& cleared) override
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return inner_.undrain_own(nodes, reason_prefix, cleared);
    }

private:
    SlurmActuator& inner_;
    std::mutex mutex_;
};

} // namespace burst

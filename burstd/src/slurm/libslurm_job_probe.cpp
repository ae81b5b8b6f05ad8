#include "slurm/libslurm_job_probe.hpp"

#include "model/hostlist.hpp"

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include <cerrno>
#include <memory>

namespace burst {

namespace {

struct JobInfoDeleter {
    void operator()(job_info_msg_t* m) const { slurm_free_job_info_msg(m); }
};
struct NodeInfoDeleter {
    void operator()(node_info_msg_t* m) const { slurm_free_node_info_msg(m); }
};

} // namespace

JobAllocation LibslurmJobProbe::probe(JobId job)
{
    JobAllocation out;
    job_info_msg_t* raw = nullptr;
    if (slurm_load_job(&raw, job, SHOW_ALL) != SLURM_SUCCESS) {
        out.error = "job " + std::to_string(job) + ": " + slurm_strerror(errno);
        return out;
    }
    std::unique_ptr<job_info_msg_t, JobInfoDeleter> jobs(raw);
    if (jobs->record_count < 1) {
        out.error = "job " + std::to_string(job) + ": not found";
        return out;
    }
    const slurm_job_info_t& info = jobs->job_array[0];
    if (info.qos)
        out.qos = info.qos;
    const uint32_t base = info.job_state & JOB_STATE_BASE;
    if (base == JOB_PENDING) {
        out.phase = JobAllocation::Phase::Pending;
        return out;
    }
    try {
        if (info.nodes)
            out.nodes = expand_hostlist(info.nodes);
    } catch (const HostlistError& e) {
        out.phase = JobAllocation::Phase::Gone;
        out.error = "job " + std::to_string(job) + ": node list: " + e.what();
        return out;
    }
    if (base != JOB_RUNNING || !(info.job_state & JOB_CONFIGURING)) {
        out.phase = JobAllocation::Phase::Started;
        return out;
    }
    out.phase = JobAllocation::Phase::Configuring;
    if (!(info.job_state & JOB_POWER_UP_NODE))
        return out; // configuring for its prolog or a reboot, no power-up
    for (const auto& name : out.nodes) {
        node_info_msg_t* nraw = nullptr;
        std::string n = name;
        if (slurm_load_node_single(&nraw, n.data(), SHOW_ALL) != SLURM_SUCCESS)
            continue;
        std::unique_ptr<node_info_msg_t, NodeInfoDeleter> nodes(nraw);
        if (nodes->record_count < 1)
            continue;
        const uint32_t state = nodes->node_array[0].node_state;
        if (state & (NODE_STATE_POWERED_DOWN | NODE_STATE_POWERING_UP))
            out.powered_down_nodes.push_back(name);
    }
    return out;
}

} // namespace burst
